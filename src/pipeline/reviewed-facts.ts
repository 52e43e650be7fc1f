// What a review that got as far as its loop reports, whatever the loop's result: the loop record,
// its cost, how much of the change it covered, and the guidance it was given; and what the
// pipeline knew before it fetched anything (`Prepared`), which those facts are drawn from.

import type { AttributeReason } from "../config/git-attributes.ts";
import type { RepoConfig } from "../config/repo-config-schema.ts";
import type { AppliedSettings } from "../config/settings-layers.ts";
import type { ChangedFile, ChangeSet } from "../domain/changed-file.ts";
import { type ReviewCoverage, STILL_OWED } from "../domain/coverage.ts";
import type { PullRequest } from "../domain/pull-request.ts";
import { costOf, type Prices } from "../domain/spend.ts";
import type { Guidance } from "../guidance/types.ts";
import type { LoopResult } from "../llm/types.ts";

export interface Prepared {
  readonly kind: "prepared";
  readonly pullRequest: PullRequest;
  readonly runId: number;
  readonly config: RepoConfig;
  /** The settings' layers and directory rules, with the files each rule took. */
  readonly settings: AppliedSettings;
  /** The directory rule each reviewable file takes (its index in `config.rules`); absent: none. */
  readonly ruleOf: ReadonlyMap<string, number>;
  readonly changes: ChangeSet;
  readonly reviewable: readonly ChangedFile[];
  readonly skippedFiles: number;
  /** Files the base's `.gitattributes` left out of the review, and why. */
  readonly leftOut: ReadonlyMap<string, AttributeReason>;
  readonly guidance: Guidance;
}

/** What every reviewed outcome says of the change, whatever the loop's result. */
export function reviewedFacts(
  prepared: Prepared,
  result: LoopResult,
  prices: Prices | null,
  coverage: ReviewCoverage | null = null,
) {
  return {
    kind: "reviewed" as const,
    result,
    cost: costOf(result.spend, prices),
    headSha: prepared.pullRequest.headSha,
    filesReviewed: coverage?.reviewedFiles ?? prepared.reviewable.length,
    filesSkipped: coverage === null ? prepared.skippedFiles : coverage.changedFiles - coverage.reviewedFiles,
    guidance: prepared.guidance,
    settings: prepared.settings,
    ...(coverage === null ? {} : { coverage }),
  };
}

/**
 * Every changed file the review meant to read was read: files left out by design (a binary, a file
 * only described, a generated, vendored or excluded one) do not make it incomplete; files skipped
 * for the budget or a failed pass do, and then threads on them are not looked at again.
 */
export function fullyCovered(coverage: ReviewCoverage | null): boolean {
  return coverage === null || coverage.notReviewed.every((f) => !STILL_OWED[f.reason]);
}
