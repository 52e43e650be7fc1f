// The one reply job, for every forge: a person mentioned Loupe in one of Loupe's review threads.
// The forge builds the host for the change (it names no head: the host reads the change as it is
// now) and says whom the spend is counted for; the job runs the one reply over the port
// (pipeline/reply-in-thread.ts), which reads the thread, opens the workspace, asks the reply loop,
// answers in the thread and resolves it when the finding is fixed or withdrawn. The host is
// disposed when the job is over, after the last text that could quote its token was posted. The
// job adds only its own ending: the log line and the metrics.

import { budgetOwnerOf } from "../domain/budget.ts";
import type { PullRequestHost } from "../host/pull-request-host.ts";
import { type AppBudget, replyBudgetFor } from "../jobs/review-budget.ts";
import type { JobLogger } from "../log/job-logger.ts";
import { type ReplyOutcome, replyInThread } from "../pipeline/reply-in-thread.ts";
import type { ReviewPorts } from "../pipeline/review-ports.ts";
import type { ThreadReplyRequest } from "../replies/handle-comment.ts";
import type { ReplyEnded } from "../replies/reply-ending.ts";
import type { WorkspaceHandle } from "../workspace/types.ts";

/** What one forge supplies to a reply job. */
export interface ForgeReply<W extends WorkspaceHandle> {
  readonly host: PullRequestHost<W> & AsyncDisposable;
}

export interface RunReplyOptions<W extends WorkspaceHandle> {
  readonly request: ThreadReplyRequest;
  readonly signal: AbortSignal;
  readonly ports: ReviewPorts<W>;
  readonly log: JobLogger;
  readonly now?: () => number;
  readonly budget?: AppBudget;
  /** Told once when the job ends: the log line and the metrics. */
  readonly onEnded?: (ending: ReplyEnded) => void;
}

export async function runReply<W extends WorkspaceHandle>(
  options: RunReplyOptions<W>,
  forge: (started: number) => ForgeReply<W>,
): Promise<ReplyOutcome> {
  const { request, ports, signal } = options;
  const now = options.now ?? Date.now;
  const started = now();
  const { outcome, result } = await (async () => {
    await using host = forge(started).host;
    return await replyInThread(host, ports, {
      rootCommentId: request.rootCommentId,
      replyCommentId: request.replyCommentId,
      signal,
      log: options.log,
      // A reply is the change's spend too, counted for the same owner as its reviews.
      ...replyBudgetFor(options.budget, budgetOwnerOf(request), now),
    });
  })();
  options.onEnded?.({ outcome, request, result, durationMs: now() - started });
  return outcome;
}
