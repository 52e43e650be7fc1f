// The discussion routes of the fake GitLab, as GitLab's Discussions, Notes, Award emoji and Merge
// requests APIs document them: a merge request's discussions (its notes grouped by discussion),
// one discussion, a note added to a discussion (a reply keeps the first note's type and position),
// a discussion resolved or unresolved, award emoji on a note, and labels added or removed.

import type {
  FakeAward,
  FakeGitLabState,
  FakeMergeRequest,
  FakeNote,
  FakeProject,
} from "./fake-gitlab-state.ts";
import { NOT_FOUND, userAnswer } from "./fake-gitlab-state.ts";

interface Request {
  readonly method: string;
  readonly body: Record<string, unknown>;
}

type Reply = { readonly status: number; readonly body?: unknown };

export function noteAnswer(state: FakeGitLabState, n: FakeNote) {
  return {
    id: n.id,
    type: n.type,
    body: n.body,
    attachment: null,
    author: userAnswer(state, n.author),
    created_at: n.created_at,
    updated_at: n.created_at,
    system: n.system,
    noteable_id: n.iid,
    noteable_type: "MergeRequest",
    noteable_iid: n.iid,
    project_id: n.projectId,
    resolvable: n.type !== null,
    resolved: n.resolved,
    resolved_by: n.resolvedBy === undefined ? null : userAnswer(state, n.resolvedBy),
    ...(n.position === null ? {} : { position: n.position }),
  };
}

/** Notes grouped by discussion, in the order their first notes were written. */
export function discussionsOf(state: FakeGitLabState, notes: readonly FakeNote[]) {
  const groups = new Map<string, FakeNote[]>();
  for (const n of notes) groups.set(n.discussionId, [...(groups.get(n.discussionId) ?? []), n]);
  return [...groups].map(([id, group]) => ({
    id,
    individual_note: group[0]!.type === null,
    notes: group.map((n) => noteAnswer(state, n)),
  }));
}

function awardAnswer(state: FakeGitLabState, a: FakeAward) {
  return {
    id: a.id,
    name: a.name,
    user: userAnswer(state, a.user),
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    awardable_id: a.noteId,
    awardable_type: "Note",
  };
}

/** The discussion, note and label routes of one merge request, or null for another route. */
export function discussionRoute(
  state: FakeGitLabState,
  project: FakeProject,
  mr: FakeMergeRequest,
  rest: string,
  request: Request,
): Reply | null {
  const { method, body } = request;
  const notes = state.notes.filter((n) => n.projectId === project.id && n.iid === mr.iid);
  if (method === "PUT" && rest === "") {
    const labels = new Set(mr.labels ?? []);
    for (const l of String(body.add_labels ?? "")
      .split(",")
      .filter(Boolean))
      labels.add(l);
    for (const l of String(body.remove_labels ?? "")
      .split(",")
      .filter(Boolean))
      labels.delete(l);
    mr.labels = [...labels];
    return { status: 200, body: { iid: mr.iid, labels: mr.labels } };
  }
  const discussion = /^\/discussions\/([^/]+)(\/notes)?$/.exec(rest);
  if (discussion !== null) {
    const id = decodeURIComponent(discussion[1]!);
    const group = notes.filter((n) => n.discussionId === id);
    if (group.length === 0) return NOT_FOUND;
    if (method === "GET" && discussion[2] === undefined)
      return { status: 200, body: discussionsOf(state, group)[0] };
    if (method === "PUT" && discussion[2] === undefined) {
      if (group[0]!.type === null) return { status: 403, body: { message: "403 Forbidden" } };
      for (const n of group) {
        n.resolved = body.resolved === true || body.resolved === "true";
        if (n.resolved) n.resolvedBy = state.self.username;
        else delete n.resolvedBy;
      }
      return { status: 200, body: discussionsOf(state, group)[0] };
    }
    if (method === "POST" && discussion[2] !== undefined) {
      const first = group[0]!;
      const reply: FakeNote = {
        ...first,
        id: state.nextId++,
        body: String(body.body ?? ""),
        type: first.type ?? "DiscussionNote",
        author: state.self.username,
        created_at: new Date().toISOString(),
      };
      delete reply.resolvedBy;
      if (first.type === null) for (const n of group) n.type = "DiscussionNote";
      state.notes.push(reply);
      return { status: 201, body: noteAnswer(state, reply) };
    }
  }
  const award = /^\/notes\/(\d+)\/award_emoji$/.exec(rest);
  if (award !== null) {
    const note = notes.find((n) => String(n.id) === award[1]);
    if (note === undefined) return NOT_FOUND;
    if (method === "GET")
      return {
        status: 200,
        body: state.awards.filter((a) => a.noteId === note.id).map((a) => awardAnswer(state, a)),
      };
    if (method === "POST") {
      const name = String(body.name ?? "");
      if (state.awards.some((a) => a.noteId === note.id && a.name === name && a.user === state.self.username))
        return { status: 404, body: { message: "404 Award Emoji Name has already been taken" } };
      const made: FakeAward = { id: state.nextId++, noteId: note.id, name, user: state.self.username };
      state.awards.push(made);
      return { status: 201, body: awardAnswer(state, made) };
    }
  }
  return null;
}
