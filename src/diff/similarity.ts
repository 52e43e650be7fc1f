// git's estimate_similarity (diffcore-rename.c): how much of a new file's content comes from an
// old one, on git's scale of 0..60,000, from sizes first and span hashes only when the sizes
// are close enough for the pair to reach the minimum score at all.

import { copiedBytes, type SpanCounts } from "./span-hash.ts";

/** A blob's size and span hashes. */
export interface Spanned {
  readonly size: number;
  readonly spans: SpanCounts;
}

/** git's MAX_SCORE: 100 % similarity. */
export const MAX_SCORE = 60_000;
/** git's DEFAULT_RENAME_SCORE, the `-M` default: 50 %. */
export const DEFAULT_RENAME_SCORE = 30_000;

/** True when the sizes alone rule the pair out: the size change is too large for `minScore`. */
export function sizesTooFar(sourceSize: number, destinationSize: number, minScore: number): boolean {
  const max = Math.max(sourceSize, destinationSize);
  const delta = max - Math.min(sourceSize, destinationSize);
  return max * (MAX_SCORE - minScore) < delta * MAX_SCORE;
}

/** The score of a pair whose sizes passed `sizesTooFar`: copied bytes over the larger size. */
export function similarityScore(source: Spanned, destination: Spanned): number {
  // git scores an empty destination 0 ("should not happen": only two empty files get here).
  if (destination.size === 0) return 0;
  const max = Math.max(source.size, destination.size);
  return Math.floor((copiedBytes(source.spans, destination.spans) * MAX_SCORE) / max);
}

/** `similarity index N%` as git prints it. */
export function similarityPercent(score: number): number {
  return Math.floor((score * 100) / MAX_SCORE);
}
