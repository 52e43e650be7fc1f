// Draft notes, their bulk publish and new diff discussions in the fake GitLab, as GitLab's source
// behaves (each behaviour names the file it comes from):
//
//  - POST …/draft_notes saves a draft after checking only the JSON shape of its position
//    (app/models/draft_note.rb validates `position` against app/validators/json_schemas/
//    position.json): a line outside the diff is accepted (201);
//  - POST …/draft_notes/bulk_publish (lib/api/draft_notes.rb → app/services/draft_notes/
//    publish_service.rb#publish_draft_notes) publishes every draft of the token's user on the merge
//    request, one by one through Notes::CreateService, with no enclosing transaction, and deletes
//    the drafts only at the end (`draft_notes.delete_all`): a note that fails validation (a line
//    not in the diff) is silently not created and the answer is still 204; an error raised part way
//    answers 500 after the earlier notes were committed, every draft still in place;
//  - POST …/discussions with a position (lib/api/discussions.rb → Notes::CreateService) validates
//    the note at once: a line not in the diff answers 400 "Note {:line_code=>[…]}".
//
// `failPublishAt(n)` makes the next bulk publish raise at its n-th draft (1-based), as an error in
// Notes::CreateService would.

import {
  type FakeDraftNote,
  type FakeGitLabState,
  type FakeMergeRequest,
  type FakeNote,
  type FakePosition,
  type FakeProject,
  NOT_FOUND,
} from "./fake-gitlab-state.ts";

interface Reply {
  readonly status: number;
  readonly body?: unknown;
}

type AddNote = (input: { body: string; position: FakePosition | null; author?: string }) => FakeNote;

export interface DraftRoutes {
  readonly state: FakeGitLabState;
  readonly project: FakeProject;
  readonly mr: FakeMergeRequest;
  /** Why GitLab would refuse the note's position (its line not in the diff…), or null. */
  readonly positionProblem: (position: FakePosition) => string | null;
  readonly addNote: AddNote;
  readonly noteAnswer: (note: FakeNote) => unknown;
  readonly tooLong: (text: string) => Reply | null;
}

const LINE_CODE = '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}';

export function draftRoute(
  routes: DraftRoutes,
  method: string,
  rest: string,
  body: Record<string, unknown>,
): Reply | null {
  const { state, project, mr } = routes;
  const mine = (d: FakeDraftNote) =>
    d.projectId === project.id && d.iid === mr.iid && d.author === state.self.username;
  if (method === "GET" && rest === "/draft_notes")
    return { status: 200, body: state.drafts.filter(mine).map(draftAnswer) };
  if (method === "POST" && rest === "/draft_notes") {
    const note = String(body.note ?? "");
    const long = routes.tooLong(note);
    if (long !== null) return long;
    const position = (body.position ?? null) as FakePosition | null;
    if (position !== null && !shapeOk(position))
      return { status: 400, body: { error: "position is invalid" } };
    const draft: FakeDraftNote = {
      id: state.nextId++,
      projectId: project.id,
      iid: mr.iid,
      author: state.self.username,
      note,
      position,
    };
    state.drafts.push(draft);
    return { status: 201, body: draftAnswer(draft) };
  }
  const one = /^\/draft_notes\/(\d+)$/.exec(rest);
  if (method === "DELETE" && one !== null) {
    const index = state.drafts.findIndex((d) => mine(d) && String(d.id) === one[1]);
    if (index < 0) return NOT_FOUND;
    state.drafts.splice(index, 1);
    return { status: 204 };
  }
  if (method === "POST" && rest === "/draft_notes/bulk_publish") {
    const drafts = state.drafts.filter(mine);
    const failAt = state.failPublishAt;
    state.failPublishAt = null;
    const made: FakeDraftNote[] = [];
    for (const [index, draft] of drafts.entries()) {
      if (failAt !== null && index + 1 === failAt) {
        state.publishes.push(made);
        return { status: 500, body: { message: "500 Internal Server Error" } };
      }
      if (draft.position !== null && routes.positionProblem(draft.position) !== null) continue;
      routes.addNote({ body: draft.note, position: draft.position, author: draft.author });
      made.push(draft);
    }
    for (const draft of drafts) state.drafts.splice(state.drafts.indexOf(draft), 1);
    state.publishes.push(made);
    return { status: 204 };
  }
  if (method === "POST" && rest === "/discussions") {
    const text = String(body.body ?? "");
    const long = routes.tooLong(text);
    if (long !== null) return long;
    const position = (body.position ?? null) as FakePosition | null;
    if (position !== null && routes.positionProblem(position) !== null)
      return { status: 400, body: { message: LINE_CODE } };
    const note = routes.addNote({ body: text, position });
    return {
      status: 201,
      body: { id: note.discussionId, individual_note: false, notes: [routes.noteAnswer(note)] },
    };
  }
  return null;
}

/** The JSON schema's checks: a text position with its SHAs, paths and line numbers (or nulls). */
function shapeOk(p: FakePosition): boolean {
  const sha = (v: unknown) => typeof v === "string" && v !== "";
  const line = (v: unknown) => v === undefined || v === null || Number.isInteger(v);
  return (
    p.position_type === "text" &&
    sha(p.base_sha) &&
    sha(p.start_sha) &&
    sha(p.head_sha) &&
    typeof p.new_path === "string" &&
    typeof p.old_path === "string" &&
    line(p.new_line) &&
    line(p.old_line)
  );
}

function draftAnswer(d: FakeDraftNote) {
  return {
    id: d.id,
    merge_request_id: d.iid,
    resolve_discussion: false,
    note: d.note,
    ...(d.position === null ? {} : { position: d.position }),
  };
}
