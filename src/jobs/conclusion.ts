// How a finished review concludes its check run. Only Loupe's gate (a finding at or above the
// repository's fail_on) may fail a check; every incomplete review is neutral, because Loupe's own
// trouble (budgets, the provider, bad model output) must never block a merge.

import { SEVERITIES, type Severity } from "../domain/finding.ts";
import type { TerminationReason } from "../domain/outcome.ts";
import type { ReviewOutcome } from "../pipeline/review-outcome.ts";
import type { CheckConclusion } from "../report/review-report.ts";
import { isAtLeast } from "../review/severity.ts";

export function conclusionFor(reason: TerminationReason, gateFailed: boolean): CheckConclusion {
  if (reason === "cancelled") return "cancelled";
  if (reason !== "final_review") return "neutral";
  return gateFailed ? "failure" : "success";
}

/** The gate a job applies: the caller's `fail-on` when given, else the repository's `fail_on`. */
export function gateReached(outcome: ReviewOutcome, failOn: Severity | null): boolean {
  if (outcome.kind !== "reviewed" || outcome.plan === null) return false;
  if (outcome.result.termination_reason !== "final_review") return false;
  const counts = outcome.plan.findingsBySeverity;
  return failOn === null
    ? outcome.plan.gateFailed
    : SEVERITIES.some((s) => counts[s] > 0 && isAtLeast(s, failOn));
}

/** The outcome as the caller's `fail-on` (the Action's input, the CI job's option) concludes it. */
export function withFailOn(outcome: ReviewOutcome, failOn: Severity | null): ReviewOutcome {
  if (outcome.kind !== "reviewed" || outcome.plan === null || failOn === null) return outcome;
  return { ...outcome, plan: { ...outcome.plan, gateFailed: gateReached(outcome, failOn) } };
}
