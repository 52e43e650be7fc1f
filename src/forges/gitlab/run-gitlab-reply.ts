// One reply job on a GitLab merge request: a person mentioned Loupe in one of Loupe's discussions.
// The same reply over the port as on GitHub (pipeline/reply-in-thread.ts), on the GitLab host: the
// discussion read, the workspace fetched from the immutable head, the answer added to the
// discussion, and the discussion resolved when the finding is fixed or withdrawn. GitLab's waits
// (429, Retry-After) end with the reply's own time.

import { setTimeout as sleep } from "node:timers/promises";
import type { AppConfig } from "../../config/app-config.ts";
import type { GitLabConfig } from "../../config/gitlab-config.ts";
import { budgetOwnerOf } from "../../domain/budget.ts";
import { type AppBudget, replyBudgetFor } from "../../jobs/review-budget.ts";
import type { JobLogger } from "../../log/job-logger.ts";
import { type ReplyOutcome, replyInThread } from "../../pipeline/reply-in-thread.ts";
import type { ReviewPorts } from "../../pipeline/review-ports.ts";
import type { ThreadReplyRequest } from "../../replies/handle-comment.ts";
import type { ReplyEnded } from "../../replies/reply-ending.ts";
import type { WorkspaceHandle } from "../../workspace/types.ts";
import { gitLabApi, tokenUser } from "./gitlab-api.ts";
import { gitLabHost } from "./gitlab-host.ts";

export interface GitLabReplyOptions<W extends WorkspaceHandle> {
  readonly ports: ReviewPorts<W>;
  readonly config: AppConfig;
  /** Absent: a GitLab reply job (from another replica of a fleet) fails, saying so. */
  readonly gitlab?: NonNullable<GitLabConfig> | undefined;
  readonly log: JobLogger;
  readonly now?: () => number;
  /** The instance's and projects' budgets, which replies spend from as reviews do. */
  readonly budget?: AppBudget;
  readonly onEnded?: (ending: ReplyEnded) => void;
}

/** The runner of GitLab's reply jobs: one token user lookup for the process. */
export function gitLabReplyRunner<W extends WorkspaceHandle>(
  options: GitLabReplyOptions<W>,
): (request: ThreadReplyRequest, signal: AbortSignal) => Promise<ReplyOutcome> {
  const now = options.now ?? Date.now;
  if (options.gitlab === undefined)
    return async () => {
      throw new Error("a GitLab reply, and GitLab is not configured in this process");
    };
  const { url, token } = options.gitlab;
  const self = tokenUser(gitLabApi({ url, token, retry: { sleep: async () => {}, now, deadline: 0 } }));
  return async (request, signal) => {
    const started = now();
    const deadline = started + options.ports.replyTimeoutMs;
    const api = gitLabApi({
      url,
      token,
      retry: { sleep: (ms) => sleep(ms, undefined, { signal }), now, deadline },
    });
    const { outcome, result } = await (async () => {
      await using host = gitLabHost({
        api,
        // A reply names no head: the host reads the merge request as it is now.
        target: { owner: request.owner, repo: request.repo, pullNumber: request.pullNumber },
        url,
        token,
        fetchWorkspace: options.ports.fetchWorkspace,
        self,
      });
      return await replyInThread(host, options.ports, {
        rootCommentId: request.rootCommentId,
        replyCommentId: request.replyCommentId,
        signal,
        log: options.log,
        ...replyBudgetFor(
          options.budget,
          // The same owner as the project's reviews.
          budgetOwnerOf(request),
          now,
        ),
      });
    })();
    options.onEnded?.({ outcome, request, result, durationMs: now() - started });
    return outcome;
  };
}
