// How a reply job ended, reported from one place: one JSON log line an operator can grep
// (`reply_ended`), and the metrics port (a closed set of outcomes, never a repository label).

import { costOf, NO_SPEND, type Prices } from "../domain/spend.ts";
import type { ThreadReply } from "../llm/reply-schema.ts";
import type { ToolLoopResult } from "../llm/types.ts";
import type { Logger } from "../log/job-logger.ts";
import type { Metrics } from "../metrics/metrics.ts";
import type { ReplyOutcome } from "../pipeline/reply-in-thread.ts";
import type { ThreadReplyRequest } from "./handle-comment.ts";

/** What the `reply_ended` line and the metrics record of a finished reply job. */
export interface ReplyEnded {
  readonly outcome: ReplyOutcome;
  readonly request: ThreadReplyRequest;
  /** null when the job ended before the loop ran. */
  readonly result: ToolLoopResult<ThreadReply> | null;
  readonly durationMs: number;
}

/** prices: the operator's (REVIEW_PRICE_*), which price a reply's spend as a review's. */
export function createReplyEndedReporter(
  metrics: Metrics,
  log: Pick<Logger, "info">,
  prices: Prices | null = null,
): (ending: ReplyEnded) => void {
  return ({ outcome, request, result, durationMs }) => {
    const usage = result?.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    const spend = result?.spend ?? NO_SPEND;
    const cost = costOf(spend, prices);
    const dollars = cost.kind === "unpriced" ? null : cost.dollars;
    metrics.replyEnded({
      outcome: outcome.kind,
      promptTokens: usage.prompt_tokens,
      completionTokens: usage.completion_tokens,
      spend,
      dollars,
      findingStatus: outcome.kind === "answered" ? outcome.status : null,
    });
    log.info(
      {
        event: "reply_ended",
        repository: `${request.owner}/${request.repo}`,
        pull_request: request.pullNumber,
        comment: request.replyCommentId,
        outcome: outcome.kind,
        ...(outcome.kind === "answered"
          ? { finding_status: outcome.status, resolved: outcome.resolved }
          : {}),
        ...(outcome.kind === "failed" || outcome.kind === "skipped" || outcome.kind === "refused"
          ? { reason: outcome.reason }
          : {}),
        termination_reason: result?.termination_reason ?? "none",
        rounds: result?.rounds ?? 0,
        tool_calls: result?.tool_calls ?? 0,
        tokens: usage.total_tokens,
        ...(dollars === null ? {} : { dollars }),
        duration_ms: Math.round(durationMs),
      },
      "reply ended",
    );
  };
}
