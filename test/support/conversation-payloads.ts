// Conversation webhooks from @octokit/webhooks-examples, adapted to the app tests' pull request:
// the issue_comment example (on an issue in GitHub's example) is moved onto pull request #2 by
// adding `issue.pull_request`; the review comment example keeps its PR #2. Both get the examples'
// installation id 1, the body under test and, where a test needs it, an author or a thread.

import { INSTALLATION, PR } from "./app-scenario.ts";
import { type ExamplePayload, webhookExample } from "./webhook-examples.ts";

export interface CommentAuthor {
  readonly login?: string;
  readonly type?: "User" | "Bot";
  readonly association?: string;
}

function author(payload: ExamplePayload, who: CommentAuthor): void {
  if (who.login !== undefined) payload.comment.user.login = who.login;
  if (who.type !== undefined) payload.comment.user.type = who.type;
  if (who.association !== undefined) payload.comment.author_association = who.association;
  payload.sender = { ...payload.comment.user };
}

let nextId = 900_000;

export function issueCommentPayload(body: string, who: CommentAuthor = {}): ExamplePayload {
  const payload = webhookExample("issue_comment", "created");
  payload.installation ??= { id: INSTALLATION };
  payload.issue.number = PR;
  payload.issue.pull_request = {
    url: `https://api.github.com/repos/Codertocat/Hello-World/pulls/${PR}`,
    html_url: `https://github.com/Codertocat/Hello-World/pull/${PR}`,
  };
  payload.comment.id = ++nextId;
  payload.comment.body = body;
  author(payload, who);
  return payload;
}

export function reviewCommentPayload(
  body: string,
  inReplyTo: number | null,
  who: CommentAuthor = {},
): ExamplePayload {
  const payload = webhookExample("pull_request_review_comment", "created");
  payload.installation ??= { id: INSTALLATION };
  payload.comment.id = ++nextId;
  payload.comment.body = body;
  if (inReplyTo === null) delete payload.comment.in_reply_to_id;
  else payload.comment.in_reply_to_id = inReplyTo;
  author(payload, who);
  return payload;
}
