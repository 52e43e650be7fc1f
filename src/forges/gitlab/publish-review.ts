// A review published on GitLab as one review, like GitHub's: every finding a draft note at a
// position, the review's body a draft note of its own, then one bulk publish that makes them
// visible together — and then made sure of, since GitLab's bulk publish is not a transaction:
//
//  - a draft's position is checked only for its JSON shape when it is saved; its line is validated
//    when it is published, and a note that fails then is silently not created (the publish still
//    answers 204);
//  - the publish creates the notes one by one, so an error answers 500 after the earlier ones were
//    committed, with every draft left in place (publishing them again would post duplicates);
//  - it publishes every draft of the token's user on the merge request, an earlier run's included.
//
// So the bot's leftover drafts are deleted before anything is drafted; after the publish, whatever
// it answered, the drafts left are deleted and the notes are read back: each part of the review
// (its body by the review's marker, each comment by its fingerprint marker) that did not land is
// posted on its own — a comment as a discussion, which GitLab validates at once (400), and the
// comments it refuses in one note naming them. A retry finds what landed the same way and posts
// only the rest: every finding lands once. A comment with no position in the diff Loupe read sends
// the whole review as one note, as before.

import type { ChangeSet } from "../../domain/changed-file.ts";
import type { HostComment, HostReview, Published } from "../../host/pull-request-host.ts";
import { renderUnplaced, type UnplacedComment } from "../../review/render-unplaced.ts";
import { unplacedMarker } from "../../review/review-marker.ts";
import { headLines, type NotePosition, notePosition } from "./diff-position.ts";
import { type GitLabApi, gitLabStatus, projectId } from "./gitlab-api.ts";
import { type DiffRefs, type GitLabTarget, projectPath } from "./merge-request.ts";
import { listNotes, type NoteAnswer } from "./notes.ts";
import { gitLabSuggestion } from "./suggestion.ts";
import { gitLabWords } from "./words.ts";

interface DraftNote {
  readonly id: number;
}

interface PublishInput {
  readonly target: GitLabTarget;
  readonly self: string;
  readonly diffRefs: DiffRefs;
  readonly changes: ChangeSet;
  readonly review: HostReview;
}

export async function publishReview(api: GitLabApi, input: PublishInput): Promise<Published> {
  const mr = `/projects/${projectId(projectPath(input.target))}/merge_requests/${input.target.pullNumber}`;
  const { review } = input;
  // An earlier attempt's drafts would be published again with this one's: duplicates.
  await deleteDrafts(api, mr);
  const before = await landed(api, mr, input);
  if (before.body !== null && before.comments.every(Boolean))
    return { kind: "already_posted", reviewId: before.body };
  const positions = positionsOf(input.changes, input.diffRefs, review);
  if (positions === null) {
    if (before.body !== null) return { kind: "already_posted", reviewId: before.body };
    const note = await api.post<{ id: number }>(`${mr}/notes`, { body: review.allInBody() });
    return { kind: "posted", reviewId: note.id, allInBody: true };
  }
  await draftAndPublish(api, mr, review, positions, before);
  // Whatever the publish answered, what landed is read back; the drafts left are not published.
  await deleteDrafts(api, mr);
  const after = await landed(api, mr, input);
  const refused: HostComment[] = [];
  for (const [index, comment] of review.comments.entries()) {
    if (after.comments[index]) continue;
    try {
      await api.post(`${mr}/discussions`, { body: gitLabSuggestion(comment), position: positions[index] });
    } catch (error) {
      if (gitLabStatus(error) !== 400) throw error;
      refused.push(comment);
    }
  }
  const reviewId = after.body ?? (await api.post<{ id: number }>(`${mr}/notes`, { body: review.body })).id;
  if (refused.length > 0) {
    const unplaced: UnplacedComment[] = refused.map(({ path, line, body }) => ({ path, line, body }));
    await api.post(`${mr}/notes`, {
      body: renderUnplaced(unplaced, unplacedMarker(review.marker), gitLabWords(null)),
    });
  }
  return { kind: "posted", reviewId, allInBody: false, unplaced: refused.length };
}

/**
 * Drafts for the parts that have not landed, then one bulk publish. A draft GitLab refuses, or a
 * publish that fails part way (a 500 after some notes were created), is left to the read-back.
 */
async function draftAndPublish(
  api: GitLabApi,
  mr: string,
  review: HostReview,
  positions: readonly NotePosition[],
  before: Landed,
): Promise<void> {
  const draft = async (body: object) => {
    try {
      await api.post<DraftNote>(`${mr}/draft_notes`, body);
      return true;
    } catch (error) {
      if (gitLabStatus(error) === null || gitLabStatus(error)! >= 500) throw error;
      return false;
    }
  };
  let drafted = before.body === null ? await draft({ note: review.body }) : false;
  for (const [index, comment] of review.comments.entries())
    if (!before.comments[index])
      drafted = (await draft({ note: gitLabSuggestion(comment), position: positions[index] })) || drafted;
  if (!drafted) return;
  try {
    await api.post(`${mr}/draft_notes/bulk_publish`, {}, { once: true });
  } catch (error) {
    if (gitLabStatus(error) === null) throw error;
  }
}

interface Landed {
  /** The note holding the review's marker (its body, or the whole review in one note). */
  readonly body: number | null;
  /** Whether each comment is on the merge request, on its line or in a note of this review. */
  readonly comments: readonly boolean[];
}

/**
 * What of this review is on the merge request, among the token user's notes: the body by the
 * review's marker; a comment by its fingerprint marker, in a diff note on this head or in a note of
 * this review (the whole review in one note, or the note of comments GitLab would not place). A
 * diff note of an earlier head with the same fingerprint is an earlier review's.
 */
async function landed(api: GitLabApi, mr: string, input: PublishInput): Promise<Landed> {
  const { review } = input;
  const mine = (await listNotes(api, mr)).filter((n) => n.author?.username === input.self);
  const ofThisReview = (n: NoteAnswer) =>
    n.body.includes(review.marker) || n.body.includes(unplacedMarker(review.marker));
  const onThisHead = (n: NoteAnswer) =>
    n.type === "DiffNote" && n.position?.head_sha === input.diffRefs.head_sha;
  return {
    body: mine.find((n) => n.body.includes(review.marker))?.id ?? null,
    comments: review.comments.map((comment) => {
      const key = commentKey(comment);
      return mine.some((n) => n.body.includes(key) && (onThisHead(n) || ofThisReview(n)));
    }),
  };
}

/** A comment's fingerprint marker; its whole text when it has none. */
function commentKey(comment: HostComment): string {
  return /<!-- loupe:fp=[0-9a-f]{16} -->/.exec(comment.body)?.[0] ?? comment.body;
}

/** Every comment's position, or null when one of them has none. */
function positionsOf(changes: ChangeSet, refs: DiffRefs, review: HostReview): NotePosition[] | null {
  const files = new Map(changes.files.map((f) => [f.filename, f]));
  const positions: NotePosition[] = [];
  for (const comment of review.comments) {
    const file = files.get(comment.path);
    if (file?.patch == null) return null;
    const position = notePosition(
      comment,
      { oldPath: file.previousFilename ?? file.filename, lines: headLines(file.patch) },
      refs,
    );
    if (position === null) return null;
    positions.push(position);
  }
  return positions;
}

async function deleteDrafts(api: GitLabApi, mr: string): Promise<void> {
  const drafts = await api.pages<DraftNote>(`${mr}/draft_notes`);
  for (const draft of drafts.items) await api.delete(`${mr}/draft_notes/${draft.id}`);
}
