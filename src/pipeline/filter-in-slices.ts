// Filters a list without holding the event loop: after each slice of `sliceMs` of synchronous
// work it yields one macrotask turn, so webhooks and other reviews run in between. Matching a
// pull request's paths is linear, but 3,000 file names of a few KB each against a repository's
// patterns still add up to hundreds of milliseconds in one go. The predicate may itself be
// asynchronous (and yield within one item).

import { performance } from "node:perf_hooks";

export interface SliceOptions {
  /** Longest run of synchronous work before yielding (default 5 ms). */
  readonly sliceMs?: number;
  readonly now?: () => number;
  readonly yieldTurn?: () => Promise<void>;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export async function filterInSlices<T>(
  items: readonly T[],
  keep: (item: T) => boolean | Promise<boolean>,
  options: SliceOptions = {},
): Promise<T[]> {
  const sliceMs = options.sliceMs ?? 5;
  const now = options.now ?? (() => performance.now());
  const yieldTurn = options.yieldTurn ?? nextTurn;
  const kept: T[] = [];
  let sliceStart = now();
  for (const item of items) {
    if (await keep(item)) kept.push(item);
    if (now() - sliceStart >= sliceMs) {
      await yieldTurn();
      sliceStart = now();
    }
  }
  return kept;
}
