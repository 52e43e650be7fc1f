// `loupe review --format json`: one naming style, snake_case, as the loop result (the bulk of
// the output), GitHub's review comments and .github/loupe.yml already use. The plan is projected
// to what a reader can use: its fingerprint set and its fallback renderer are internal.

import { loupeTool } from "../config/loupe-version.ts";
import type { ReviewCoverage } from "../domain/coverage.ts";
import { gitHubComment } from "../forges/github/github-comment.ts";
import { LOCAL_WORDS } from "../forges/local/words.ts";
import { reviewDocument } from "../pipeline/machine-review.ts";
import type { ReviewOutcome } from "../pipeline/review-outcome.ts";
import type { PlannedReview } from "../pipeline/review-ports.ts";

type Reviewed = Extract<ReviewOutcome, { kind: "reviewed" }>;
type Skipped = Extract<ReviewOutcome, { kind: "skipped" }>;

export interface ReviewFacts {
  readonly configuration: string;
  readonly filesReviewed: number;
  readonly filesLeftOut: number;
  readonly guidance: string;
}

function planJson(plan: PlannedReview | null) {
  if (plan === null) return null;
  return {
    postable: plan.postable,
    placement: plan.placement,
    body: plan.body,
    // What the App would post: the comments in GitHub review API's words, as before the port had its own.
    comments: plan.comments.map(gitHubComment),
    findings_by_severity: plan.findingsBySeverity,
    gate_failed: plan.gateFailed,
  };
}

/** A review in passes: each pass and every file none reviewed, in the output's snake_case. */
function coverageJson(coverage: ReviewCoverage) {
  return {
    changed_files: coverage.changedFiles,
    reviewed_files: coverage.reviewedFiles,
    passes: coverage.passes.map((p) => ({
      index: p.index,
      files: p.files,
      lines: p.lines,
      first_path: p.firstPath,
      last_path: p.lastPath,
      ended: p.ended,
      findings: p.findings,
      tokens: p.tokens,
    })),
    not_reviewed: coverage.notReviewed,
  };
}

export function reviewedJson(outcome: Reviewed, facts: ReviewFacts): string {
  const json = {
    // The agents' fields first (docs/review-result.schema.json); the loop result's after, as before.
    ...reviewDocument(outcome, loupeTool(), LOCAL_WORDS),
    ...outcome.result,
    cost: outcome.cost,
    configuration: facts.configuration,
    files_reviewed: facts.filesReviewed,
    files_left_out: facts.filesLeftOut,
    guidance: facts.guidance,
    plan: planJson(outcome.plan),
    ...(outcome.coverage === undefined ? {} : { coverage: coverageJson(outcome.coverage) }),
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

export function skippedJson(outcome: Skipped, configuration: string): string {
  const json = {
    ...reviewDocument(outcome, loupeTool(), LOCAL_WORDS),
    skipped: { reason: outcome.code, detail: outcome.detail },
    configuration,
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}
