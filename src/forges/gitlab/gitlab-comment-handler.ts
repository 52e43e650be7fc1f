// GitLab's note events through the same conversation core as GitHub's comments: the note mapped
// (gitlab-note.ts, pure), Loupe's username from the token, and the merge request's
// conversation adapter, whose permission lookups go through the process's cache (keyed apart
// from GitHub's). Every outcome is one log line; a queue that cannot take the work is thrown, so
// the webhook holds the note and hands it over again when the queue is back.

import type { PermissionCache } from "../../conversation/permission-cache.ts";
import type { ReviewRequest } from "../../domain/review-request.ts";
import { QueueUnavailableError } from "../../jobs/queue-unavailable.ts";
import { errorDetail } from "../../log/error-detail.ts";
import type { Logger } from "../../log/job-logger.ts";
import { handleComment, type ThreadReplyRequest } from "../../replies/handle-comment.ts";
import type { GitLabApi } from "./gitlab-api.ts";
import { gitLabConversationApi } from "./gitlab-conversation.ts";
import { gitLabNoteEvent } from "./gitlab-note.ts";

export interface GitLabCommentHandlerOptions {
  readonly api: GitLabApi;
  /** The token's own username: Loupe's name in commands, and the author of Loupe's notes. */
  readonly self: () => Promise<string>;
  readonly enqueueReview: (request: ReviewRequest) => Promise<string>;
  readonly enqueueReply: (request: ThreadReplyRequest) => Promise<string>;
  readonly permissions: PermissionCache;
  readonly log: Pick<Logger, "info" | "warn">;
}

export interface GitLabDeliveryInput {
  readonly event: string;
  readonly deliveryId: string;
  readonly payload: unknown;
}

/** What became of one note event, as the metrics count it: skipped, ignored, answered, … or failed. */
export type GitLabCommentHandler = (delivery: GitLabDeliveryInput) => Promise<string>;

export function createGitLabCommentHandler(options: GitLabCommentHandlerOptions): GitLabCommentHandler {
  return async (delivery) => {
    const event = gitLabNoteEvent(delivery);
    if (event.kind === "skip") return "skipped";
    try {
      const self = await options.self();
      const api = gitLabConversationApi(options.api, { ...event, self });
      const cached = {
        ...api,
        canWrite: (login: string) =>
          options.permissions.canWrite({ forge: "gitlab", owner: event.owner, repo: event.repo, login }, () =>
            api.canWrite(login),
          ),
      };
      const outcome = await handleComment({
        event,
        botLogin: self,
        api: cached,
        enqueueReview: options.enqueueReview,
        enqueueReply: options.enqueueReply,
        onAcknowledgeError: (error) =>
          options.log.warn({ error: errorDetail(error) }, "could not add the 👀 award emoji"),
        onPermissionError: (error) =>
          options.log.warn(
            {
              mr: event.pullNumber,
              note: event.commentId,
              login: event.author.login,
              error: errorDetail(error),
            },
            "note ignored: GitLab did not say whether its author is a Developer or higher, so nothing was done",
          ),
      });
      options.log.info({ mr: event.pullNumber, note: event.commentId, ...outcome }, "GitLab note handled");
      return outcome.kind;
    } catch (error) {
      if (error instanceof QueueUnavailableError) throw error;
      options.log.warn({ mr: event.pullNumber, error: errorDetail(error) }, "GitLab note not handled");
      return "failed";
    }
  };
}
