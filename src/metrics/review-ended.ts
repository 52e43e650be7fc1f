// The end of every review job, reported twice from one place: to the metrics port, and as one
// log line (JSON with LOG_FORMAT=json) carrying what an operator greps for: which pull request and
// commit, why the loop stopped, the check run's conclusion, and what the review cost.

import type { TerminationReason } from "../domain/outcome.ts";
import { type Cost, dollarsOf, NO_SPEND } from "../domain/spend.ts";
import type { LoopResult } from "../llm/types.ts";
import type { Logger } from "../log/job-logger.ts";
import type { FindingEvents } from "../pipeline/review-outcome.ts";
import type { Metrics } from "./metrics.ts";

/** What the `review_ended` line and the metrics record of a finished job (how it ended is jobs/ending.ts). */
export interface ReviewEnded {
  readonly repository: string;
  readonly pullNumber: number;
  readonly headSha: string;
  readonly conclusion: string;
  /** null when the job ended before or without the loop (skips, configuration, failures). */
  readonly result: LoopResult | null;
  /** What the loop's spend cost (null with the result). */
  readonly cost: Cost | null;
  /** What became of findings in the review, when it published (posted, fixed). */
  readonly findingEvents?: FindingEvents;
  /** Why a review ended without its loop, when that has a name (github_unavailable). */
  readonly terminationReason?: TerminationReason;
  /** Why the change was not reviewed (draft, closed, author_not_allowed, …), for a skip. */
  readonly skipReason?: string;
  readonly durationMs: number;
}

export type ReviewEndedReporter = (ending: ReviewEnded) => void;

export function createReviewEndedReporter(metrics: Metrics, log: Pick<Logger, "info">): ReviewEndedReporter {
  return (ending) => {
    const result = ending.result;
    const terminationReason = ending.terminationReason ?? result?.termination_reason ?? "none";
    const usage = result?.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    const spend = result?.spend ?? NO_SPEND;
    const dollars = ending.cost === null ? null : dollarsOf(ending.cost);
    metrics.reviewEnded({
      terminationReason,
      conclusion: ending.conclusion,
      durationSeconds: ending.durationMs / 1000,
      promptTokens: usage.prompt_tokens,
      completionTokens: usage.completion_tokens,
      spend,
      dollars,
      findingsPosted: ending.findingEvents?.posted ?? 0,
      findingsFixed: ending.findingEvents?.fixed ?? 0,
    });
    log.info(
      {
        event: "review_ended",
        repository: ending.repository,
        pull_request: ending.pullNumber,
        head_sha: ending.headSha,
        termination_reason: terminationReason,
        conclusion: ending.conclusion,
        ...(ending.skipReason === undefined ? {} : { skip_reason: ending.skipReason }),
        rounds: result?.rounds ?? 0,
        tool_calls: result?.tool_calls ?? 0,
        tokens: usage.total_tokens,
        prompt_tokens: usage.prompt_tokens,
        completion_tokens: usage.completion_tokens,
        input_tokens: spend.input_tokens,
        cached_input_tokens: spend.cached_input_tokens,
        output_tokens: spend.output_tokens,
        // null: no prices set and no cost reported (docs/cost-and-budgets.md), never a guessed 0.
        cost_dollars: dollars,
        duration_ms: Math.round(ending.durationMs),
      },
      "review ended",
    );
  };
}
