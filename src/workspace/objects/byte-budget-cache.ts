// A least-recently-used cache bounded by the bytes it holds, not by its number of entries: one
// review may read a thousand small files or a few large ones, and memory is what must stay bounded.

export interface ByteBudgetCache<V, K = string> {
  get(key: K): V | undefined;
  set(key: K, value: V, bytes: number): void;
  readonly bytesHeld: number;
}

export function createByteBudgetCache<V, K = string>(budgetBytes: number): ByteBudgetCache<V, K> {
  // A Map iterates in insertion order, so re-inserting on every hit keeps the oldest first.
  const entries = new Map<K, { value: V; bytes: number }>();
  let held = 0;
  // Something larger than a quarter of the budget would evict most of the cache for one read.
  const largest = budgetBytes / 4;
  return {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value, bytes) {
      if (bytes > largest) return;
      const previous = entries.get(key);
      if (previous !== undefined) {
        held -= previous.bytes;
        entries.delete(key);
      }
      entries.set(key, { value, bytes });
      held += bytes;
      for (const [oldest, entry] of entries) {
        if (held <= budgetBytes) break;
        entries.delete(oldest);
        held -= entry.bytes;
      }
    },
    get bytesHeld() {
      return held;
    },
  };
}
