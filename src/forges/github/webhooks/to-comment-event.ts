// Pure mapping of the conversation webhooks to a comment Loupe may act on: `issue_comment.created`
// on a pull request, and `pull_request_review_comment.created`. Edited and deleted comments are
// not read (re-running a command because someone fixed a typo would surprise), nor comments on
// plain issues. Everything else about the comment (who wrote it, what it asks) is decided later.

import type { CommentEvent, CommentSkip, PullRequestComment } from "../../../replies/comment-event.ts";
import { authorRole } from "./author-role.ts";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (typeof v === "object" && v !== null ? (v as Json) : null);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const num = (v: unknown): number | null =>
  typeof v === "number" && Number.isSafeInteger(v) && v > 0 ? v : null;
const skip = (message: string): CommentSkip => ({ kind: "skip", message });

interface CommentInput {
  readonly name: string;
  readonly id: string;
  readonly payload: unknown;
}

export function toCommentEvent(input: CommentInput): CommentEvent | CommentSkip {
  const comment = toPullRequestComment(input);
  if (comment.kind === "skip") return comment;
  const installationId = num(obj(obj(input.payload)?.installation)?.id);
  if (installationId === null) return skip("The event carries no installation id.");
  return { ...comment, forge: "github", installationId };
}

export function toPullRequestComment(input: CommentInput): PullRequestComment | CommentSkip {
  const payload = obj(input.payload);
  if (payload === null) return skip("The event has no payload.");
  if (input.name !== "issue_comment" && input.name !== "pull_request_review_comment") {
    return skip(`${input.name} events are not conversation.`);
  }
  if (payload.action !== "created") return skip(`${input.name}.${String(payload.action)} is not read.`);
  const repository = obj(payload.repository);
  const owner = str(obj(repository?.owner)?.login);
  const repo = str(repository?.name);
  if (owner === null || repo === null) return skip("The event names no repository.");
  const comment = obj(payload.comment);
  const commentId = num(comment?.id);
  const body = str(comment?.body);
  if (comment === null || commentId === null || body === null)
    return skip("The event carries no usable comment.");
  let pull: Json | null;
  if (input.name === "issue_comment") {
    pull = obj(payload.issue);
    // Every pull request is an issue; only those carry `issue.pull_request`.
    if (obj(pull?.pull_request) === null) return skip("The comment is on an issue, not a pull request.");
  } else {
    pull = obj(payload.pull_request);
  }
  const pullNumber = num(pull?.number);
  if (pullNumber === null) return skip("The event names no pull request.");
  const user = obj(comment.user);
  return {
    kind: "comment",
    deliveryId: input.id,
    source: input.name === "issue_comment" ? "issue_comment" : "review_comment",
    owner,
    repo,
    pullNumber,
    commentId,
    body,
    author: {
      login: str(user?.login),
      type: str(user?.type),
      role: comment.author_association === undefined ? null : authorRole(comment.author_association),
    },
    inReplyTo: input.name === "pull_request_review_comment" ? num(comment.in_reply_to_id) : null,
    pullAuthor: str(obj(pull?.user)?.login),
  };
}
