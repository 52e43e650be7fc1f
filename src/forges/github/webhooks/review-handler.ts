// The handler of the events that ask for a review (pull_request, check_run, check_suite): it maps
// the delivery to review requests and hands them to the queue, nothing else. The webhook is
// answered once the queue has taken them (a queue that cannot take one throws, and the delivery
// fails so GitHub can redeliver it); the check run carries every later failure.

import type { Context } from "probot";
import type { SkipReason } from "../../../domain/review-request.ts";
import type { ReviewQueue } from "../../../jobs/review-queue.ts";
import type { Metrics } from "../../../metrics/metrics.ts";
import { toReviewRequest } from "./to-review-request.ts";

/**
 * Skips an operator asks about ("why was this pull request not reviewed?"): one info line each.
 * The rest are events that were never a review (Loupe's own check runs, another app's, actions
 * Loupe does not review), a debug line, or every review would log two more.
 */
const WORTH_A_LINE: ReadonlySet<SkipReason> = new Set([
  "pull_request_closed",
  "no_pull_request",
  "no_installation",
  "unsupported_event",
]);

export interface ReviewHandlerOptions {
  readonly queue: ReviewQueue;
  readonly metrics: Metrics;
  readonly appId: number | null;
  /** The identifier of the check run's re-run button. */
  readonly rerunIdentifier: string;
}

export function createReviewHandler(options: ReviewHandlerOptions): (context: Context) => Promise<void> {
  const { queue, metrics } = options;
  return async (context) => {
    const mapped = toReviewRequest(
      { name: context.name, id: context.id, payload: context.payload },
      { appId: options.appId, rerunIdentifier: options.rerunIdentifier },
    );
    if (mapped.kind === "skip") {
      metrics.webhookDelivery(context.name, "skipped");
      const action = (context.payload as { action?: unknown }).action;
      const fields = {
        event: typeof action === "string" ? `${context.name}.${action}` : context.name,
        delivery: context.id,
        reason: mapped.reason,
      };
      if (WORTH_A_LINE.has(mapped.reason)) context.log.info(fields, `delivery skipped: ${mapped.message}`);
      else context.log.debug(fields, `delivery skipped: ${mapped.message}`);
      return;
    }
    const outcomes: string[] = [];
    for (const request of mapped.requests) {
      const outcome = await queue.enqueue(request);
      outcomes.push(outcome);
      context.log.info({ pr: request.pullNumber, outcome }, "review request");
    }
    // One count per delivery: "queued" when any of its pull requests was queued.
    metrics.webhookDelivery(
      context.name,
      outcomes.includes("queued") ? "queued" : (outcomes[0] ?? "skipped"),
    );
  };
}
