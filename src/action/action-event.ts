// What the workflow's triggering event asks of Loupe, as a value. `pull_request` and
// `pull_request_target` carry the same pull request object and map exactly as the App's webhook
// does; an `issue_comment` on a pull request asks for a review with `@<mention> review` (or
// `full review`), whose author's permission is looked up afterwards. Everything else is a skip.

import { parseCommand } from "../conversation/command.ts";
import { type CommentAuthor, decideAuthor } from "../conversation/permission.ts";
import type { ReviewRequest } from "../github/review-request.ts";
import { toCommentEvent } from "../webhooks/to-comment-event.ts";
import { toReviewRequest } from "../webhooks/to-review-request.ts";

export type ActionEvent =
  | { readonly kind: "review"; readonly request: ReviewRequest }
  | {
      readonly kind: "command";
      readonly pullNumber: number;
      readonly commentId: number;
      readonly login: string;
      readonly full: boolean;
    }
  | { readonly kind: "skip"; readonly message: string };

export interface ActionEventOptions {
  readonly mention: string;
  /** Whose comments are Loupe's own (never read as commands). */
  readonly botLogin: string;
  /** The workflow run, standing in for the webhook's delivery id. */
  readonly runId: string;
}

// A workflow's event carries no App installation (the token is the workflow's or one given as an
// input); the shared mappings want one, so the event is given a placeholder that nothing reads.
const NO_INSTALLATION = { id: 1 };

export function toActionEvent(name: string, payload: unknown, options: ActionEventOptions): ActionEvent {
  const withInstallation =
    typeof payload === "object" && payload !== null ? { installation: NO_INSTALLATION, ...payload } : payload;
  if (name === "pull_request" || name === "pull_request_target") {
    const mapped = toReviewRequest(
      { name: "pull_request", id: options.runId, payload: withInstallation },
      { appId: null, rerunIdentifier: "" },
    );
    if (mapped.kind === "skip")
      return { kind: "skip", message: mapped.message.replace("pull_request.", `${name}.`) };
    return { kind: "review", request: mapped.requests[0]! };
  }
  if (name !== "issue_comment") {
    return {
      kind: "skip",
      message: `${name} events are not reviewed: use pull_request, pull_request_target or issue_comment.`,
    };
  }
  const comment = toCommentEvent({ name, id: options.runId, payload: withInstallation });
  if (comment.kind === "skip") return comment;
  const author: CommentAuthor = comment.author;
  const decision = decideAuthor(author, options.botLogin);
  if (decision.kind === "ignored")
    return { kind: "skip", message: `The comment's author is ignored (${decision.reason}).` };
  const parsed = parseCommand(comment.body, options.mention);
  if (parsed.kind === "none")
    return { kind: "skip", message: `The comment does not mention @${options.mention}.` };
  if (parsed.command !== "review" && parsed.command !== "full_review") {
    return {
      kind: "skip",
      message: `Only \`@${options.mention} review\` and \`@${options.mention} full review\` run in the action.`,
    };
  }
  return {
    kind: "command",
    pullNumber: comment.pullNumber,
    commentId: comment.commentId,
    login: decision.login,
    full: parsed.command === "full_review",
  };
}

/** The review a writer's command asks for: the pull request as it is now (read with pulls.get). */
export function commandRequest(
  event: Extract<ActionEvent, { kind: "command" }>,
  where: { readonly owner: string; readonly repo: string; readonly runId: string; readonly headSha: string },
): ReviewRequest {
  return {
    deliveryId: where.runId,
    trigger: event.full ? "command.full_review" : "command.review",
    installationId: NO_INSTALLATION.id,
    owner: where.owner,
    repo: where.repo,
    pullNumber: event.pullNumber,
    headSha: where.headSha,
    rerun: true,
    pullRequest: null,
  };
}
