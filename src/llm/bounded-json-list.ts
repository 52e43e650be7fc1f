// A list of repository data for a prompt, as the JSON array `JSON.stringify` writes, holding the
// first whole entries that fit both a count and a size bound. Names and patches are the pull
// request's to choose: without the size bound, kilobyte-long names make a megabyte of prompt,
// built, copied and sent in one turn of the event loop.

export interface BoundedJsonList {
  /** The JSON array of the entries kept. */
  readonly json: string;
  /** How many entries it holds (a prefix of the input). */
  readonly count: number;
}

export function boundedJsonList(
  items: readonly unknown[],
  limits: { readonly maxEntries: number; readonly maxChars: number },
): BoundedJsonList {
  const entries: string[] = [];
  let chars = 2; // the brackets
  for (const item of items.slice(0, limits.maxEntries)) {
    const entry = JSON.stringify(item);
    chars += entry.length + (entries.length > 0 ? 1 : 0);
    if (chars > limits.maxChars) break;
    entries.push(entry);
  }
  return { json: `[${entries.join(",")}]`, count: entries.length };
}
