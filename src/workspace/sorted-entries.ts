// A snapshot's entries are sorted by path (JavaScript's string order), so everything under a
// directory is one run of them, found by binary search.

import type { TreeEntry } from "./types.ts";

/** Index of the first entry whose path is >= `key` (entries are sorted by path). */
export function lowerBound(entries: readonly TreeEntry[], key: string): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (entries[middle]!.path < key) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Every entry under `directory` ("" for the whole tree): one run of the sorted entries. */
export function entriesUnder(entries: readonly TreeEntry[], directory: string): readonly TreeEntry[] {
  const prefix = directory === "" ? "" : `${directory}/`;
  const start = lowerBound(entries, prefix);
  let end = start;
  while (end < entries.length && entries[end]!.path.startsWith(prefix)) end += 1;
  return entries.slice(start, end);
}
