// One reply job of the App: a person mentioned Loupe in one of Loupe's review threads. The job
// takes a review's path: the GitHub host for the pull request, and the one reply over the port
// (pipeline/reply-in-thread.ts), which reads the thread, opens the workspace, asks the reply loop
// and answers in the thread. The host forgets the installation token when the job is over, after
// the last text that could quote it was posted. The job adds only its own ending: the log line
// and the metrics.

import { setTimeout as sleep } from "node:timers/promises";
import { budgetOwnerOf } from "../domain/budget.ts";
import { gitHubHost } from "../forges/github/github-host.ts";
import type { JobEnvironment } from "../jobs/job-environment.ts";
import { type AppBudget, replyBudgetFor } from "../jobs/review-budget.ts";
import { type ReplyOutcome, replyInThread } from "../pipeline/reply-in-thread.ts";
import type { Workspace, WorkspaceHandle } from "../workspace/types.ts";
import type { ThreadReplyRequest } from "./handle-comment.ts";
import type { ReplyEnded } from "./reply-ending.ts";

export interface RunReplyOptions<W extends WorkspaceHandle = Workspace> extends JobEnvironment<W> {
  readonly request: ThreadReplyRequest;
  readonly now?: () => number;
  /** The installation's and repositories' budgets, which replies spend from as reviews do. */
  readonly budget?: AppBudget;
  /** Told once when the job ends: the log line and the metrics. */
  readonly onEnded?: (ending: ReplyEnded) => void;
}

export async function runReply<W extends WorkspaceHandle>(
  options: RunReplyOptions<W>,
): Promise<ReplyOutcome> {
  const { request, ports, config, signal } = options;
  const now = options.now ?? Date.now;
  const started = now();
  const { outcome, result } = await (async () => {
    await using host = gitHubHost({
      octokit: options.octokit,
      // A reply names no head: the host reads the pull request as it is now.
      request: {
        owner: request.owner,
        repo: request.repo,
        pullNumber: request.pullNumber,
        pullRequest: null,
      },
      gitBaseUrl: config.gitBaseUrl,
      gitHost: config.gitHost,
      fetchWorkspace: ports.fetchWorkspace,
      botLogin: options.botLogin,
      // A reply publishes no review; were it to, its waits would end with the reply's own time.
      retry: {
        sleep: (ms, wait) => sleep(ms, undefined, { signal: wait }),
        now,
        deadline: started + ports.replyTimeoutMs,
      },
    });
    return await replyInThread(host, ports, {
      rootCommentId: request.rootCommentId,
      replyCommentId: request.replyCommentId,
      signal,
      log: options.log,
      ...replyBudgetFor(
        options.budget,
        // A reply is the pull request's spend too: its cap counts it.
        budgetOwnerOf(request),
        now,
      ),
    });
  })();
  options.onEnded?.({ outcome, request, result, durationMs: now() - started });
  return outcome;
}
