// What the workflow's triggering event asks of Loupe, as a value. `pull_request` and
// `pull_request_target` carry the same pull request object and map exactly as the App's webhook
// does; an `issue_comment` on a pull request asks for a review with `@<mention> review` (or
// `full review`), whose author's permission is looked up afterwards. Everything else is a skip.

import { parseCommand } from "../conversation/command.ts";
import { type CommentAuthor, decideAuthor } from "../conversation/permission.ts";
import type { GitHubReview } from "../domain/review-request.ts";
import { toPullRequestComment } from "../forges/github/webhooks/to-comment-event.ts";
import { toPullRequestReview } from "../forges/github/webhooks/to-review-request.ts";

export type ActionEvent =
  | { readonly kind: "review"; readonly request: GitHubReview }
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
// input): the mappings it shares with the App are the ones that ask for none, and its skips name the
// workflow's own event.
export function toActionEvent(name: string, payload: unknown, options: ActionEventOptions): ActionEvent {
  if (name === "pull_request" || name === "pull_request_target") {
    const mapped = toPullRequestReview({ name, id: options.runId, payload });
    if (mapped.kind === "skip") return { kind: "skip", message: mapped.message };
    return { kind: "review", request: mapped.requests[0]! };
  }
  if (name !== "issue_comment") {
    return {
      kind: "skip",
      message: `${name} events are not reviewed: use pull_request, pull_request_target or issue_comment.`,
    };
  }
  const comment = toPullRequestComment({ name, id: options.runId, payload });
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
): GitHubReview {
  return {
    forge: "github",
    deliveryId: where.runId,
    trigger: event.full ? "command.full_review" : "command.review",
    owner: where.owner,
    repo: where.repo,
    pullNumber: event.pullNumber,
    headSha: where.headSha,
    rerun: true,
    pullRequest: null,
  };
}
