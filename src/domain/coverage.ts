// What a review covered when its change was reviewed in passes: each pass (its files, how its
// loop ended, what it found and spent) and every changed file it did not review, with why. The
// check run shows it, so a large pull request is never pruned in silence.

import type { TerminationReason } from "./outcome.ts";

/**
 * Why a changed file was not reviewed. `excluded`: the repository's `paths` rules. `removed`: a
 * deleted file has no head to review. `binary`: no text diff. `too_large`: the host gave no diff
 * for it (over its size limits). `budget`: the review's budget had no pass left for it.
 * `pass_failed`: its pass ended without a review (the provider failed, time ran out).
 */
export type NotReviewedReason = "excluded" | "removed" | "binary" | "too_large" | "budget" | "pass_failed";

export const NOT_REVIEWED_SENTENCES: Readonly<Record<NotReviewedReason, string>> = {
  excluded: "excluded by the paths rules",
  removed: "deleted",
  binary: "binary (no text diff)",
  too_large: "diff too large for the host to show",
  budget: "the review's budget had no pass left for them",
  pass_failed: "their pass ended without a review",
};

export interface PassCoverage {
  /** 1-based. */
  readonly index: number;
  readonly files: number;
  /** Additions + deletions of its files. */
  readonly lines: number;
  readonly firstPath: string;
  readonly lastPath: string;
  /** How its loop ended; null when it never ran (the budget or an earlier failure stopped it). */
  readonly ended: TerminationReason | null;
  readonly findings: number;
  readonly tokens: number;
}

export interface ReviewCoverage {
  /** Every changed file GitHub listed. */
  readonly changedFiles: number;
  readonly reviewedFiles: number;
  readonly passes: readonly PassCoverage[];
  readonly notReviewed: readonly { readonly path: string; readonly reason: NotReviewedReason }[];
}
