// Filters a list without holding the event loop: after each slice of `sliceMs` of synchronous
// work it yields one macrotask turn (domain/time-slices.ts), so webhooks and other reviews run in
// between. Matching a pull request's paths is linear, but 3,000 file names of a few KB each
// against a repository's patterns still add up to hundreds of milliseconds in one go. The
// predicate may itself be asynchronous (and yield within one item).

import { type SliceOptions, TimeSlices } from "../domain/time-slices.ts";

export async function filterInSlices<T>(
  items: readonly T[],
  keep: (item: T) => boolean | Promise<boolean>,
  options: SliceOptions = {},
): Promise<T[]> {
  const slices = new TimeSlices(options);
  const kept: T[] = [];
  for (const item of items) {
    if (await keep(item)) kept.push(item);
    await slices.pause();
  }
  return kept;
}
