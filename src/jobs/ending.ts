// How a job ends on its check run: the conclusion and output for a review's outcome, and whether
// the queue should remember the SHA as reviewed (so a redelivered push is not reviewed twice; a
// draft skip is not remembered, so ready_for_review on the same SHA still gets its review).
// Every ending's text closes with the agents' document in a hidden block (review-json-block.ts).

import { loupeTool } from "../config/loupe-version.ts";
import type { ForgeWords } from "../domain/forge-words.ts";
import { ENVIRONMENT_NAMES, type SettingNames } from "../domain/setting-names.ts";
import { type LoupeTool, reviewDocument } from "../pipeline/machine-review.ts";
import type { ReviewOutcome } from "../pipeline/review-outcome.ts";
import { renderCheckRunOutput, renderSkipOutput, withMachineBlock } from "../report/check-run-output.ts";
import type { CheckConclusion, CheckRunOutput } from "../report/review-report.ts";
import { withSettingsSection } from "../report/settings-blocks.ts";
import { emptySeverityCounts } from "../review/severity.ts";
import type { ReferenceSyntax } from "../review/wide-references.ts";
import { conclusionFor } from "./conclusion.ts";
import { cancelledOutput, configErrorOutput, failureOutput, REPORT_TEXT_LIMIT } from "./ending-texts.ts";
import { reviewJsonBlock } from "./review-json-block.ts";

/** How a review job ends on its forge (a check run, or a status and a note), and what the queue keeps. */
export interface Ending {
  readonly conclusion: CheckConclusion;
  readonly output: CheckRunOutput;
  readonly remember: boolean;
}

// The trace keeps at least this much of the text; the block has the rest.
const TRACE_ROOM = 1500;

/** The check run's text ends with the outcome's document; only a review's trace comes before it. */
function withDocument(output: CheckRunOutput, block: string): CheckRunOutput {
  return { ...output, text: output.text === undefined ? block : withMachineBlock(output.text, block) };
}

/**
 * `words`: how the texts name the forge that shows them; `names`: how they name settings where
 * they are read (the Action: its inputs); `references`: the host's, where the texts are also a note
 * there (GitLab's summary note).
 */
export function endingFor(
  outcome: ReviewOutcome,
  words: ForgeWords,
  tool: LoupeTool = loupeTool(),
  names: SettingNames = ENVIRONMENT_NAMES,
  references?: ReferenceSyntax,
): Ending {
  const block = reviewJsonBlock(reviewDocument(outcome, tool, words), REPORT_TEXT_LIMIT - TRACE_ROOM);
  switch (outcome.kind) {
    case "skipped":
      return {
        conclusion: "skipped",
        output: withDocument(
          withSettingsSection(renderSkipOutput(outcome.code, outcome.detail), outcome.settings),
          block,
        ),
        remember: outcome.remember,
      };
    case "config_invalid":
      return {
        conclusion: "action_required",
        output: withDocument(configErrorOutput(outcome.errors, words), block),
        remember: false,
      };
    case "cancelled":
      return {
        conclusion: "cancelled",
        output: withDocument(cancelledOutput(outcome.reason, words), block),
        remember: false,
      };
    case "failed":
      return {
        conclusion: "neutral",
        output: withDocument(failureOutput(outcome.error, words), block),
        remember: false,
      };
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
        output: withSettingsSection(
          renderCheckRunOutput({
            result,
            words,
            ...(words.showsConclusion ? { conclusion } : {}),
            findingsBySeverity: plan?.findingsBySeverity ?? emptySeverityCounts(),
            filesReviewed: outcome.filesReviewed,
            filesSkipped: outcome.filesSkipped,
            headSha: outcome.headSha,
            extraNote: notes.join("\n\n"),
            cost: outcome.cost,
            ...(plan === null ? {} : { ledger: plan.ledger }),
            ...(outcome.coverage === undefined ? {} : { coverage: outcome.coverage }),
            names,
            machineBlock: block,
            ...(references === undefined ? {} : { references }),
          }),
          outcome.settings,
        ),
        remember: !outcome.publishFailed,
      };
    }
  }
}
