// How a job ends on its check run: the conclusion and output for a review's outcome, and whether
// the queue should remember the SHA as reviewed (so a redelivered push is not reviewed twice; a
// draft skip is not remembered, so ready_for_review on the same SHA still gets its review).

import { cancelledOutput, configErrorOutput, failureOutput } from "../check-runs/texts.ts";
import type { CheckRunEnding } from "../github/check-run.ts";
import { renderCheckRunOutput, renderSkipOutput } from "../github/check-run-output.ts";
import type { ReviewOutcome } from "../pipeline/review-outcome.ts";
import { emptySeverityCounts } from "../review/severity.ts";
import { conclusionFor } from "./conclusion.ts";

/** The check run's ending, and what the queue keeps of it. */
export interface Ending extends CheckRunEnding {
  readonly remember: boolean;
}

export function endingFor(outcome: ReviewOutcome): Ending {
  switch (outcome.kind) {
    case "skipped":
      return {
        conclusion: "skipped",
        output: renderSkipOutput(outcome.code, outcome.detail),
        remember: outcome.remember,
      };
    case "config_invalid":
      return { conclusion: "action_required", output: configErrorOutput(outcome.errors), remember: false };
    case "cancelled":
      return { conclusion: "cancelled", output: cancelledOutput(outcome.reason), remember: false };
    case "failed":
      return { conclusion: "neutral", output: failureOutput(outcome.error), remember: false };
    case "reviewed": {
      const { result, plan } = outcome;
      // Only Loupe's fail_on gate fails a check, and only a complete review that could be posted.
      const gate = plan?.gateFailed ?? false;
      const complete = result.termination_reason === "final_review";
      const conclusion = outcome.publishFailed ? "neutral" : conclusionFor(result.termination_reason, gate);
      const notes = [...outcome.notes];
      if (gate && complete && !outcome.publishFailed)
        notes.push("A finding reached this repository's `fail_on` severity.");
      return {
        conclusion,
        output: renderCheckRunOutput({
          result,
          conclusion,
          findingsBySeverity: plan?.findingsBySeverity ?? emptySeverityCounts(),
          filesReviewed: outcome.filesReviewed,
          filesSkipped: outcome.filesSkipped,
          headSha: outcome.headSha,
          extraNote: notes.join("\n\n"),
          cost: outcome.cost,
          ...(plan === null ? {} : { ledger: plan.ledger }),
          ...(outcome.coverage === undefined ? {} : { coverage: outcome.coverage }),
        }),
        remember: !outcome.publishFailed,
      };
    }
  }
}
