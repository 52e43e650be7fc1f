// The REST subset of the fake GitLab, answered as GitLab documents it: the merge request with its
// diff_refs, its diffs (paged, X-Next-Page), notes and discussions, draft notes and their bulk
// publish as GitLab's source does them (fake-gitlab-drafts.ts: a position's line is checked when
// a note is created from it, not when a draft is saved), commit statuses, members, repository files and trees from the
// default branch, merge_base and compare. Notes longer than GitLab's 1,000,000 characters are a 400.

import { type FakeDiff, git, gitLabDiffs } from "./fake-gitlab-diffs.ts";
import { discussionRoute, discussionsOf, noteAnswer } from "./fake-gitlab-discussions.ts";
import { draftRoute } from "./fake-gitlab-drafts.ts";
import {
  type FakeGitLabState,
  type FakeMergeRequest,
  type FakeNote,
  type FakePosition,
  type FakeProject,
  NOT_FOUND,
  projectOf,
  userAnswer,
} from "./fake-gitlab-state.ts";

export interface FakeReply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  readonly text?: string;
}

interface Request {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: Record<string, unknown>;
}

const MAX_NOTE = 1_000_000;
const STATES = new Set(["pending", "running", "success", "failed", "canceled"]);

export function routeGitLab(state: FakeGitLabState, request: Request): FakeReply {
  const { method, path } = request;
  if (method === "GET" && path === "/user")
    return { status: 200, body: userAnswer(state, state.self.username) };
  // lib/api/personal_access_tokens/self_information.rb: any token but a personal access token
  // (project and group access tokens are ones, of bot users) gets 400.
  if (method === "GET" && path === "/personal_access_tokens/self" && state.tokenType !== "personal")
    return {
      status: 400,
      body: { message: "400 Bad request - This endpoint requires token type to be a personal access token" },
    };
  if (method === "GET" && path === "/personal_access_tokens/self")
    return {
      status: 200,
      body: { id: 1, name: "loupe", active: true, revoked: false, scopes: state.scopes },
    };
  if (method === "GET" && path === "/users") {
    const name = request.query.get("username") ?? "";
    return { status: 200, body: state.users.has(name) ? [userAnswer(state, name)] : [] };
  }
  const match = /^\/projects\/([^/]+)(\/.*)?$/.exec(path);
  const project = match === null ? undefined : projectOf(state, match[1]!);
  if (project === undefined) return NOT_FOUND;
  const rest = match?.[2] ?? "";
  if (method === "GET" && rest === "")
    return {
      status: 200,
      body: { id: project.id, path_with_namespace: project.path, default_branch: project.defaultBranch },
    };
  const member = /^\/members\/all\/(\d+)$/.exec(rest);
  if (method === "GET" && member !== null) {
    const name = [...state.users].find(([, id]) => String(id) === member[1])?.[0];
    const level = name === undefined ? undefined : project.members.get(name);
    return level === undefined
      ? NOT_FOUND
      : { status: 200, body: { ...userAnswer(state, name!), access_level: level } };
  }
  const status = /^\/statuses\/([0-9a-f]{40})$/.exec(rest);
  if (method === "POST" && status !== null) return postStatus(state, project, status[1]!, request.body);
  if (rest.startsWith("/repository/")) return repository(state, project, rest.slice(11), request);
  const mr = /^\/merge_requests\/(\d+)(\/.*)?$/.exec(rest);
  if (mr === null) return NOT_FOUND;
  const found = state.mergeRequests.get(`${project.id}!${mr[1]}`);
  if (found === undefined) return NOT_FOUND;
  return mergeRequestRoute(state, project, found, mr[2] ?? "", request);
}

// app/services/ci/create_commit_status_service.rb: the commit must be in the project (404
// "Commit"), and the status needs a ref: the `ref` given, else the newest pipeline's for the SHA
// (the fake has no pipelines), else the first branch holding the SHA — none for a fork's head,
// kept only as refs/merge-requests/<iid>/head: 404 "References for commit".
function postStatus(
  state: FakeGitLabState,
  project: FakeProject,
  sha: string,
  body: Record<string, unknown>,
): FakeReply {
  if (!STATES.has(String(body.state)))
    return { status: 400, body: { error: "state does not have a valid value" } };
  try {
    git(project.gitdir, state.home, "cat-file", "-e", `${sha}^{commit}`);
  } catch {
    return { status: 404, body: { message: "404 Commit Not Found" } };
  }
  const ref =
    typeof body.ref === "string" && body.ref !== ""
      ? body.ref
      : git(project.gitdir, state.home, "branch", "--format=%(refname:short)", "--contains", sha)
          .split("\n")
          .find(Boolean);
  if (ref === undefined) return { status: 404, body: { message: "404 References for commit Not Found" } };
  // The same service: `forbidden unless Ability.allowed?(current_user, :update_pipeline, pipeline)`
  // — a Reporter may not.
  if ((project.botAccess ?? 30) < 30) return { status: 403, body: { message: "403 Forbidden" } };
  const status = {
    id: state.nextId++,
    sha,
    status: String(body.state) as "pending",
    name: typeof body.name === "string" ? body.name : "default",
    description: typeof body.description === "string" ? body.description : undefined,
    target_url: typeof body.target_url === "string" ? body.target_url : "",
    ref,
  };
  state.statuses.push(status);
  return { status: 201, body: status };
}

function repository(state: FakeGitLabState, project: FakeProject, rest: string, request: Request): FakeReply {
  const ref = request.query.get("ref") ?? project.defaultBranch;
  const file = /^\/files\/([^/]+)(\/raw)?$/.exec(rest);
  if (file !== null) {
    const filePath = decodeURIComponent(file[1]!);
    let text: string;
    try {
      text = git(project.gitdir, state.home, "show", `${ref}:${filePath}`);
    } catch {
      return { status: 404, body: { message: "404 File Not Found" } };
    }
    const headers = { "X-Gitlab-Size": String(Buffer.byteLength(text)), "X-Gitlab-File-Path": filePath };
    if (file[2] !== undefined) return { status: 200, text, headers };
    return { status: 200, headers, body: { file_path: filePath, size: Buffer.byteLength(text) } };
  }
  if (rest === "/tree") {
    const dir = request.query.get("path") ?? "";
    let listing: string;
    try {
      listing = git(project.gitdir, state.home, "ls-tree", `${ref}:${dir}`);
    } catch {
      return { status: 404, body: { message: "404 Tree Not Found" } };
    }
    const entries = listing
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [meta, name] = line.split("\t");
        const [mode, type, id] = meta!.split(" ");
        return { id, name, type, path: dir === "" ? name : `${dir}/${name}`, mode };
      });
    return { status: 200, body: entries, headers: { "X-Next-Page": "" } };
  }
  if (rest === "/merge_base") {
    const refs = request.query.getAll("refs[]");
    try {
      return { status: 200, body: { id: git(project.gitdir, state.home, "merge-base", ...refs).trim() } };
    } catch {
      return { status: 404, body: { message: "404 Commit Not Found" } };
    }
  }
  if (rest === "/compare") {
    const from = request.query.get("from") ?? "";
    const to = request.query.get("to") ?? "";
    try {
      const commits = git(project.gitdir, state.home, "rev-list", `${from}..${to}`)
        .split("\n")
        .filter(Boolean);
      return {
        status: 200,
        body: {
          commits: commits.map((id) => ({ id })),
          diffs: gitLabDiffs(project.gitdir, state.home, from, to),
          compare_same_ref: false,
        },
      };
    } catch {
      return { status: 404, body: { message: "404 Commit Not Found" } };
    }
  }
  return NOT_FOUND;
}

function mergeRequestRoute(
  state: FakeGitLabState,
  project: FakeProject,
  mr: FakeMergeRequest,
  rest: string,
  request: Request,
): FakeReply {
  const { method } = request;
  const mine = (n: { projectId: number; iid: number }) => n.projectId === project.id && n.iid === mr.iid;
  if (method === "GET" && rest === "") return { status: 200, body: mergeRequestAnswer(state, project, mr) };
  // GET …/diffs has no overflow flag (API::MergeRequests, lib/api/merge_requests.rb); the
  // deprecated GET …/changes answers the merge request with `changes` and `overflow`.
  if (method === "GET" && rest === "/diffs") return paged(mr.diffs, request.query);
  if (method === "GET" && rest === "/changes")
    return {
      status: 200,
      body: { ...mergeRequestAnswer(state, project, mr), changes: mr.diffs, overflow: mr.overflow },
    };
  if (method === "GET" && rest === "/notes")
    return paged(
      state.notes.filter(mine).map((n) => noteAnswer(state, n)),
      request.query,
    );
  if (method === "GET" && rest === "/discussions")
    return paged(discussionsOf(state, state.notes.filter(mine)), request.query);
  if (method === "POST" && rest === "/notes") {
    const body = String(request.body.body ?? "");
    if (body.length > MAX_NOTE) return tooLong();
    return { status: 201, body: noteAnswer(state, addNote(state, project, mr, { body, position: null })) };
  }
  const note = /^\/notes\/(\d+)$/.exec(rest);
  if (method === "PUT" && note !== null) {
    const found = state.notes.find((n) => mine(n) && String(n.id) === note[1]);
    if (found === undefined) return NOT_FOUND;
    const body = String(request.body.body ?? "");
    if (body.length > MAX_NOTE) return tooLong();
    found.body = body;
    return { status: 200, body: noteAnswer(state, found) };
  }
  const drafts = draftRoute(
    {
      state,
      project,
      mr,
      positionProblem: (position) => positionProblem(mr, position),
      addNote: (input) => addNote(state, project, mr, input),
      noteAnswer: (n) => noteAnswer(state, n),
      tooLong: (text) => (text.length > MAX_NOTE ? tooLong() : null),
    },
    method,
    rest,
    request.body,
  );
  if (drafts !== null) return drafts;
  return discussionRoute(state, project, mr, rest, request) ?? NOT_FOUND;
}

function tooLong(): FakeReply {
  return { status: 400, body: { message: { note: ["is too long (maximum is 1000000 characters)"] } } };
}

/** Why GitLab would refuse the position, or null: the SHAs, the path, and the line's two numbers. */
export function positionProblem(mr: FakeMergeRequest, p: FakePosition): string | null {
  if (p.position_type !== "text") return "position_type must be text";
  const refs = mr.diffRefs;
  if (p.base_sha !== refs.base_sha || p.start_sha !== refs.start_sha || p.head_sha !== refs.head_sha)
    return '400 Bad request - Note {:position=>["is invalid"]}';
  const diff = mr.diffs.find((d) => d.new_path === p.new_path && d.old_path === p.old_path);
  if (diff === undefined)
    return '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}';
  const line = linesOf(diff).find((l) => l.newLine === p.new_line);
  const valid = line !== undefined && (line.added ? p.old_line == null : p.old_line === line.oldLine);
  return valid
    ? null
    : '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}';
}

function linesOf(diff: FakeDiff): { newLine: number; oldLine: number; added: boolean }[] {
  const lines: { newLine: number; oldLine: number; added: boolean }[] = [];
  let oldLine = 0;
  let newLine = 0;
  for (const raw of diff.diff.split("\n")) {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)/.exec(raw);
    if (header !== null) [oldLine, newLine] = [Number(header[1]), Number(header[2])];
    else if (raw.startsWith("+")) lines.push({ newLine: newLine++, oldLine, added: true });
    else if (raw.startsWith("-")) oldLine++;
    else if (raw.startsWith(" ")) lines.push({ newLine: newLine++, oldLine: oldLine++, added: false });
  }
  return lines;
}

export function addNote(
  state: FakeGitLabState,
  project: FakeProject,
  mr: FakeMergeRequest,
  input: { body: string; position: FakePosition | null; author?: string },
): FakeNote {
  const note: FakeNote = {
    id: state.nextId++,
    projectId: project.id,
    iid: mr.iid,
    body: input.body,
    type: input.position === null ? null : "DiffNote",
    system: false,
    author: input.author ?? state.self.username,
    created_at: new Date().toISOString(),
    discussionId: `d${state.nextId++}`,
    position: input.position,
    resolved: false,
  };
  state.notes.push(note);
  return note;
}

function mergeRequestAnswer(state: FakeGitLabState, project: FakeProject, mr: FakeMergeRequest) {
  return {
    id: mr.iid + 1000,
    iid: mr.iid,
    project_id: project.id,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    draft: mr.draft,
    work_in_progress: mr.draft,
    web_url: `http://gitlab.invalid/${project.path}/-/merge_requests/${mr.iid}`,
    sha: mr.diffRefs.head_sha,
    source_branch: mr.sourceBranch,
    target_branch: mr.targetBranch,
    source_project_id: mr.sourceProjectId ?? project.id,
    target_project_id: project.id,
    labels: mr.labels ?? [],
    author: userAnswer(state, mr.author),
    diff_refs: mr.diffRefs,
    // MergeRequest#diff_size: the diff's DiffCollection#real_size, "N+" once GitLab cut it.
    changes_count: mr.overflow ? `${mr.diffs.length}+` : String(mr.diffs.length),
  };
}

/** GitLab's offset pagination: page and per_page in, X-Page, X-Next-Page and X-Total out. */
function paged(items: readonly unknown[], query: URLSearchParams): FakeReply {
  const perPage = Math.min(100, Number(query.get("per_page") ?? 20));
  const page = Math.max(1, Number(query.get("page") ?? 1));
  const pages = Math.max(1, Math.ceil(items.length / perPage));
  return {
    status: 200,
    body: items.slice((page - 1) * perPage, page * perPage),
    headers: {
      "X-Page": String(page),
      "X-Per-Page": String(perPage),
      "X-Next-Page": page < pages ? String(page + 1) : "",
      "X-Total": String(items.length),
      "X-Total-Pages": String(pages),
    },
  };
}
