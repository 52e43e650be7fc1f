// `loupe review --format json`: one naming style, snake_case, as the loop result (the bulk of
// the output), GitHub's review comments and .github/loupe.yml already use. The plan is projected
// to what a reader can use: its fingerprint set and its fallback renderer are internal.

import type { ReviewOutcome } from "../pipeline/review-outcome.ts";
import type { PlannedReview } from "../pipeline/review-ports.ts";

type Reviewed = Extract<ReviewOutcome, { kind: "reviewed" }>;

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
    comments: plan.comments,
    findings_by_severity: plan.findingsBySeverity,
    gate_failed: plan.gateFailed,
  };
}

export function reviewedJson(outcome: Reviewed, facts: ReviewFacts): string {
  const json = {
    ...outcome.result,
    cost: outcome.cost,
    configuration: facts.configuration,
    files_reviewed: facts.filesReviewed,
    files_left_out: facts.filesLeftOut,
    guidance: facts.guidance,
    plan: planJson(outcome.plan),
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

export function skippedJson(code: string, detail: string, configuration: string): string {
  return `${JSON.stringify({ skipped: { reason: code, detail }, configuration }, null, 2)}\n`;
}
