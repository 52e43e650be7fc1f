// A set of strings that forgets its oldest entries past a limit: the in-process queue's memory of
// delivery ids and reviewed SHAs stays bounded however long the process runs.

export class BoundedSet {
  readonly #items = new Set<string>();
  readonly #limit: number;
  constructor(limit: number) {
    this.#limit = limit;
  }
  has(value: string): boolean {
    return this.#items.has(value);
  }
  delete(value: string): void {
    this.#items.delete(value);
  }
  add(value: string): void {
    this.#items.delete(value);
    this.#items.add(value);
    if (this.#items.size > this.#limit) this.#items.delete(this.#items.values().next().value as string);
  }
}
