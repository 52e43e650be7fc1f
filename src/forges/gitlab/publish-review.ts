// A review published on GitLab as one review, like GitHub's: every finding a draft note at a
// validated position, the review's body a draft note of its own, then one bulk publish that makes
// them visible together. A retry finds a review that already landed by its hidden marker in
// Loupe's own notes; drafts an interrupted attempt left behind (only their author sees them) are
// deleted first. A comment GitLab could not place — outside the patch, or refused — sends the
// whole review as one note with every finding in it, never a review with findings missing.

import type { ChangeSet } from "../../domain/changed-file.ts";
import type { HostReview, Published } from "../../host/pull-request-host.ts";
import { headLines, type NotePosition, notePosition } from "./diff-position.ts";
import { type GitLabApi, gitLabStatus, projectId } from "./gitlab-api.ts";
import { type DiffRefs, type GitLabTarget, projectPath } from "./merge-request.ts";
import { listNotes } from "./notes.ts";
import { gitLabSuggestion } from "./suggestion.ts";

interface DraftNote {
  readonly id: number;
}

export async function publishReview(
  api: GitLabApi,
  input: {
    readonly target: GitLabTarget;
    readonly self: string;
    readonly diffRefs: DiffRefs;
    readonly changes: ChangeSet;
    readonly review: HostReview;
  },
): Promise<Published> {
  const mr = `/projects/${projectId(projectPath(input.target))}/merge_requests/${input.target.pullNumber}`;
  const { review } = input;
  const landed = await findByMarker(api, mr, input.self, review.marker);
  if (landed !== null) return { kind: "already_posted", reviewId: landed };
  await deleteDrafts(api, mr);
  const positions = positionsOf(input.changes, input.diffRefs, review);
  if (positions !== null) {
    try {
      await api.post<DraftNote>(`${mr}/draft_notes`, { note: review.body });
      for (const [index, comment] of review.comments.entries())
        await api.post<DraftNote>(`${mr}/draft_notes`, {
          note: gitLabSuggestion(comment),
          position: positions[index],
        });
      await api.post(`${mr}/draft_notes/bulk_publish`);
      const id = await findByMarker(api, mr, input.self, review.marker);
      if (id !== null) return { kind: "posted", reviewId: id, allInBody: false };
      throw new Error("GitLab published the review, but its note with Loupe's marker is not listed");
    } catch (error) {
      if (gitLabStatus(error) !== 400) throw error;
      await deleteDrafts(api, mr);
    }
  }
  const note = await api.post<{ id: number }>(`${mr}/notes`, { body: review.allInBody() });
  return { kind: "posted", reviewId: note.id, allInBody: true };
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

async function findByMarker(
  api: GitLabApi,
  mr: string,
  self: string,
  marker: string,
): Promise<number | null> {
  const notes = await listNotes(api, mr);
  return notes.find((n) => n.author?.username === self && n.body.includes(marker))?.id ?? null;
}

async function deleteDrafts(api: GitLabApi, mr: string): Promise<void> {
  const drafts = await api.pages<DraftNote>(`${mr}/draft_notes`);
  for (const draft of drafts.items) await api.delete(`${mr}/draft_notes/${draft.id}`);
}
