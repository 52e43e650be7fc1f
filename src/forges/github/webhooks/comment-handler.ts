// The Probot handler of the conversation webhooks: maps the payload, resolves Loupe's login, and
// hands the comment to the conversation core with the installation's GitHub adapter, whose
// permission lookups go through the process's cache. Every outcome is one log line; nothing a
// comment asks for can throw past this handler unlogged.

import type { Context } from "probot";
import { createPermissionCache, type PermissionCache } from "../../../conversation/permission-cache.ts";
import { redactSecrets } from "../../../domain/redact.ts";
import { forgeTagOf, type ReviewRequest } from "../../../domain/review-request.ts";
import { QueueUnavailableError } from "../../../jobs/queue-unavailable.ts";
import { errorDetail } from "../../../log/error-detail.ts";
import { handleComment, type ThreadReplyRequest } from "../../../replies/handle-comment.ts";
import { createConversationApi } from "../conversation-api.ts";
import type { GitHubClient } from "../octokit.ts";
import { toCommentEvent } from "./to-comment-event.ts";

export interface CommentHandlerOptions {
  readonly botLogin: () => Promise<string>;
  /** Resolves once the queue has taken the request (the webhook is answered after that). */
  readonly enqueueReview: (request: ReviewRequest) => Promise<string>;
  readonly enqueueReply?: (request: ThreadReplyRequest) => Promise<string>;
  /** One count per delivery (metrics): skipped, ignored, answered, review_queued, reply_queued, failed. */
  readonly onOutcome?: (event: string, outcome: string) => void;
  /** Who may write where, remembered for a minute; one per process by default. */
  readonly permissions?: PermissionCache;
}

export function createCommentHandler(options: CommentHandlerOptions) {
  const permissions = options.permissions ?? createPermissionCache();
  return async (context: Context): Promise<void> => {
    const event = toCommentEvent({ name: context.name, id: context.id, payload: context.payload });
    if (event.kind === "skip") {
      context.log.debug({}, event.message);
      options.onOutcome?.(context.name, "skipped");
      return;
    }
    const octokit = context.octokit as GitHubClient;
    const enqueueReply = options.enqueueReply;
    const github = createConversationApi(octokit, { owner: event.owner, repo: event.repo });
    const api = {
      ...github,
      canWrite: (login: string) =>
        permissions.canWrite({ ...forgeTagOf(event), owner: event.owner, repo: event.repo, login }, () =>
          github.canWrite(login),
        ),
    };
    try {
      const outcome = await handleComment({
        event,
        botLogin: await options.botLogin(),
        api,
        enqueueReview: options.enqueueReview,
        ...(enqueueReply ? { enqueueReply } : {}),
        onAcknowledgeError: (error) =>
          context.log.warn(
            { error: redactSecrets(String(error)).slice(0, 200) },
            "could not add the 👀 reaction",
          ),
        onPermissionError: (error) =>
          context.log.warn(
            {
              pr: event.pullNumber,
              comment: event.commentId,
              login: event.author.login,
              error: errorDetail(error),
            },
            "comment ignored: GitHub did not say whether its author may write to the repository, so nothing was done",
          ),
      });
      context.log.info({ pr: event.pullNumber, comment: event.commentId, ...outcome }, "comment handled");
      options.onOutcome?.(context.name, outcome.kind);
    } catch (error) {
      context.log.warn(
        { pr: event.pullNumber, error: redactSecrets(String(error)).slice(0, 200) },
        "comment not handled",
      );
      options.onOutcome?.(context.name, "failed");
      // A queue that cannot take the work (Redis away) fails the delivery with its 503, so GitHub
      // keeps it for redelivery; anything else was the comment's own trouble and is answered.
      if (error instanceof QueueUnavailableError) throw error;
    }
  };
}
