// Pure mapping of a GitLab note event (X-Gitlab-Event: Note Hook or, for an internal note,
// Confidential Note Hook; `object_kind: note`) on a merge
// request to the same comment event GitHub's conversation webhooks give: a plain note is a
// conversation comment; a note in a discussion (a diff note or a thread's reply) is a review
// comment. GitLab's event names the note's discussion, not the note it answers, so `inReplyTo` is
// the note itself and the conversation adapter reads the discussion's first note from GitLab.
// System notes, notes on issues, commits and snippets, and edits are skipped; a field GitLab left
// out is a clear skip, never a crash.

import type { GitLabTag } from "../../domain/review-request.ts";
import type { CommentSkip, PullRequestComment } from "../../replies/comment-event.ts";
import { GITLAB_NOTE_EVENTS } from "./gitlab-delivery-key.ts";
import { BOT_USERNAME } from "./merge-request.ts";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (typeof v === "object" && v !== null ? (v as Json) : null);
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const num = (v: unknown): number | null =>
  typeof v === "number" && Number.isSafeInteger(v) && v > 0 ? v : null;
const skip = (message: string): CommentSkip => ({ kind: "skip", message });

/** The comment, and the discussion it is in (every GitLab note has one). */
export type GitLabNote = PullRequestComment & GitLabTag & { readonly discussionId: string };

export function gitLabNoteEvent(input: {
  readonly event: string;
  readonly deliveryId: string;
  readonly payload: unknown;
}): GitLabNote | CommentSkip {
  const payload = obj(input.payload);
  // An internal note goes to the confidential note hooks, whose deliveries are named "Confidential
  // Note Hook" (app/services/notes/post_process_service.rb): a command in one is a command too.
  if (!GITLAB_NOTE_EVENTS.includes(input.event) || payload?.object_kind !== "note")
    return skip(`GitLab's ${input.event} is not conversation.`);
  const note = obj(payload.object_attributes);
  if (note === null || str(note.noteable_type) !== "MergeRequest")
    return skip("The note is not on a merge request.");
  if (note.system === true) return skip("GitLab's system notes are not read.");
  // GitLab sends `action: update` for an edit (recent versions); only new notes are read.
  if (note.action !== undefined && note.action !== "create") return skip("An edited note is not read.");
  const path = str(obj(payload.project)?.path_with_namespace);
  const iid = num(obj(payload.merge_request)?.iid);
  const id = num(note.id);
  const body = str(note.note);
  const discussionId = str(note.discussion_id);
  if (path === null || !path.includes("/") || iid === null) return skip("The event names no merge request.");
  if (id === null || body === null || discussionId === null) return skip("The event carries no usable note.");
  const threaded = note.type === "DiffNote" || note.type === "DiscussionNote";
  const slash = path.lastIndexOf("/");
  const login = str(obj(payload.user)?.username);
  // GitLab's note event names the merge request's author by id alone (merge_request.author_id):
  // the note's author is the merge request's when the ids match, and is then answered in Loupe's
  // threads without Developer access, as a pull request's author is on GitHub.
  const userId = num(obj(payload.user)?.id);
  const byAuthor = userId !== null && userId === num(obj(payload.merge_request)?.author_id);
  return {
    kind: "comment",
    deliveryId: input.deliveryId,
    source: threaded ? "review_comment" : "issue_comment",
    owner: path.slice(0, slash),
    repo: path.slice(slash + 1),
    pullNumber: iid,
    commentId: id,
    body,
    author: {
      login,
      type: login !== null && BOT_USERNAME.test(login) ? "Bot" : "User",
      role: null,
    },
    inReplyTo: threaded ? id : null,
    forge: "gitlab",
    pullAuthor: byAuthor ? login : null,
    discussionId,
  };
}
