// What a review covered when its change was reviewed in passes: each pass (its files, how its
// loop ended, what it found and spent) and every changed file it did not review, with why. The
// check run shows it, so a large pull request is never pruned in silence.

import type { TerminationReason } from "./outcome.ts";

/**
 * Why a changed file was not reviewed. `excluded`: the repository's `paths` rules (the lockfile
 * defaults among them). `generated`, `vendored`, `no_diff`: the base's `.gitattributes` marks it
 * `linguist-generated`, `linguist-vendored`, or `-diff`/`binary`, GitHub's own conventions.
 * `removed`: a deleted file has no head to review. `described`: reviewed from a description only
 * (its size and line counts), its diff being too large to show or binary. `binary`, `too_large`:
 * no text diff. `budget`: the review's budget had no pass left for it. `pass_failed`: its pass
 * ended without a review (the provider failed, time ran out).
 */
export type NotReviewedReason =
  | "excluded"
  | "generated"
  | "vendored"
  | "no_diff"
  | "removed"
  | "described"
  | "binary"
  | "too_large"
  | "budget"
  | "pass_failed";

/**
 * Whether a file left out for this reason still owes a review, decided per reason so a new reason
 * must be decided too. Owed only when the review meant to read it and could not (no budget left, its
 * pass failed): a review again would read it. A file left out by the repository's choice or by its
 * nature (paths rules, `.gitattributes`, deleted, binary, too large to show, only described) is as
 * covered as it will ever be, so it neither makes the review incomplete nor counts as a cut.
 */
export const STILL_OWED: Readonly<Record<NotReviewedReason, boolean>> = {
  excluded: false,
  generated: false,
  vendored: false,
  no_diff: false,
  removed: false,
  described: false,
  binary: false,
  too_large: false,
  budget: true,
  pass_failed: true,
};

export const NOT_REVIEWED_SENTENCES: Readonly<Record<NotReviewedReason, string>> = {
  excluded: "excluded by the paths rules",
  generated: "generated (linguist-generated in .gitattributes)",
  vendored: "vendored (linguist-vendored in .gitattributes)",
  no_diff: "no diff wanted (-diff or binary in .gitattributes)",
  described: "shown only as a description (too large to show line by line, or binary)",
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
