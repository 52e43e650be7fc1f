// What a review in passes covered, file by file: the passes that finished with a review covered
// their files; every other changed file is listed with why it was not reviewed.

import type { ChangedFile } from "../domain/changed-file.ts";
import type { NotReviewedReason, PassCoverage, ReviewCoverage } from "../domain/coverage.ts";
import type { LoopResult } from "../llm/types.ts";

export interface AsideFile {
  readonly path: string;
  readonly reason: "binary" | "too_large";
}

/**
 * Files without a text diff are not given a pass of their own in a large change: a binary file
 * has nothing to review line by line, and a diff the host would not show is better reviewed
 * alone than crowding out a pass. A rename without changes has no diff and needs none.
 */
export function setAside(reviewable: readonly ChangedFile[]): {
  readonly withDiff: ChangedFile[];
  readonly aside: AsideFile[];
} {
  const withDiff: ChangedFile[] = [];
  const aside: AsideFile[] = [];
  for (const file of reviewable) {
    const lines = file.additions + file.deletions;
    if (file.patch !== null || (lines === 0 && file.status === "renamed")) withDiff.push(file);
    else aside.push({ path: file.filename, reason: lines > 0 ? "too_large" : "binary" });
  }
  return { withDiff, aside };
}

export interface CoverageInput {
  readonly changedFiles: readonly ChangedFile[];
  readonly reviewable: readonly ChangedFile[];
  readonly aside: readonly AsideFile[];
  readonly plan: readonly (readonly ChangedFile[])[];
  /** The results of the passes that ran, in the plan's order. */
  readonly ran: readonly LoopResult[];
  /** Why the passes that did not run did not: the budget, or a failure that stopped the review. */
  readonly notRun: "budget" | "pass_failed";
}

export function coverageOf(input: CoverageInput): ReviewCoverage {
  const reviewable = new Set(input.reviewable.map((f) => f.filename));
  const notReviewed: { path: string; reason: NotReviewedReason }[] = input.changedFiles
    .filter((f) => !reviewable.has(f.filename))
    .map((f) => ({ path: f.filename, reason: f.status === "removed" ? "removed" : "excluded" }));
  notReviewed.push(...input.aside);
  let reviewedFiles = 0;
  const passes: PassCoverage[] = input.plan.map((files, i) => {
    const result = input.ran[i];
    if (result?.review != null) reviewedFiles += files.length;
    else {
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
