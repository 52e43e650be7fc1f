// What a review covered, file by file: the loops that finished with a review covered their files;
// every other changed file is listed with why it was not reviewed, and the files a finished loop
// saw only as a description (too large to show line by line, or binary) are named as such.

import type { AttributeReason } from "../config/git-attributes.ts";
import type { ChangedFile } from "../domain/changed-file.ts";
import type { NotReviewedReason, PassCoverage, ReviewCoverage } from "../domain/coverage.ts";
import type { LoopResult } from "../llm/types.ts";
import { isDescribed } from "./review-passes.ts";

export interface CoverageInput {
  readonly changedFiles: readonly ChangedFile[];
  readonly reviewable: readonly ChangedFile[];
  /** Files the base's `.gitattributes` left out, and why. */
  readonly leftOut: ReadonlyMap<string, AttributeReason>;
  readonly plan: readonly (readonly ChangedFile[])[];
  /** The results of the loops, in the plan's order; undefined for one that never ran. */
  readonly ran: readonly (LoopResult | undefined)[];
  /** Why the loops that did not run did not: the budget, or a failure that stopped the review. */
  readonly notRun: "budget" | "pass_failed";
}

export function coverageOf(input: CoverageInput): ReviewCoverage {
  const reviewable = new Set(input.reviewable.map((f) => f.filename));
  const notReviewed: { path: string; reason: NotReviewedReason }[] = input.changedFiles
    .filter((f) => !reviewable.has(f.filename))
    .map((f) => ({
      path: f.filename,
      reason: f.status === "removed" ? "removed" : (input.leftOut.get(f.filename) ?? "excluded"),
    }));
  let reviewedFiles = 0;
  const passes: PassCoverage[] = input.plan.map((files, i) => {
    const result = input.ran[i];
    if (result?.review != null) {
      reviewedFiles += files.length;
      notReviewed.push(
        ...files.filter(isDescribed).map((f) => ({ path: f.filename, reason: "described" as const })),
      );
    } else {
      const reason = result === undefined ? input.notRun : "pass_failed";
      notReviewed.push(...files.map((f) => ({ path: f.filename, reason })));
    }
    return {
      index: i + 1,
      files: files.length,
      lines: files.reduce((sum, f) => sum + f.additions + f.deletions, 0),
      firstPath: files[0]!.filename,
      lastPath: files.at(-1)!.filename,
      ended: result?.termination_reason ?? null,
      findings: result?.review?.findings.length ?? 0,
      tokens: result?.usage.total_tokens ?? 0,
    };
  });
  return { changedFiles: input.changedFiles.length, reviewedFiles, passes, notReviewed };
}

/** Reasons a review in one loop shows its coverage for: what `.gitattributes` left out, or described. */
const SHOWN_FOR_ONE_LOOP: ReadonlySet<NotReviewedReason> = new Set<NotReviewedReason>([
  "generated",
  "vendored",
  "no_diff",
  "described",
]);

/** A review in one loop has coverage to show only when something was left out by design or described. */
export function worthShowing(coverage: ReviewCoverage): boolean {
  return coverage.passes.length > 1 || coverage.notReviewed.some((f) => SHOWN_FOR_ONE_LOOP.has(f.reason));
}
