// A fake GitLab for Loupe's GitLab host and server: one node:http server on 127.0.0.1 serving the
// REST subset under /api/v4 (fake-gitlab-routes.ts; every request needs the PRIVATE-TOKEN) and git
// smart HTTP at /<namespace>/<project>.git/… through a real `git http-backend`, where the token
// is the Basic password (GitLab takes any user name with a personal or project access token).
// Every request is recorded; 429s with Retry-After can be asked for.
//
//   const gitlab = await startFakeGitLab();
//   gitlab.addProject({ path: "group/app", source: fixture, members: { dev: 30 } });
//   const mr = gitlab.addMergeRequest({ project: "group/app", iid: 1, sourceBranch: "change" });
//   gitlab.pushBranch("group/app", fixture, "change"); gitlab.addMergeRequest(…the same iid…)   // a push
//   gitlab.notes / gitlab.drafts / gitlab.publishes / gitlab.statuses / gitlab.requests
//   gitlab.written    every text the token's user sent (notes, edits, drafts, replies, statuses)
//   await gitlab.stop();   fails when the shared quick-action checker finds a command in `written`

import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import {
  cutLikeGitLab,
  GITLAB_DEFAULT_DIFF_LIMITS,
  type GitLabDiffLimits,
  git,
  gitLabDiffs,
} from "./fake-gitlab-diffs.ts";
import { tracePositions } from "./fake-gitlab-positions.ts";
import { addNote, routeGitLab } from "./fake-gitlab-routes.ts";
import type { FakeGitLabState, FakeMergeRequest, FakeNote } from "./fake-gitlab-state.ts";
import type { FixtureRepo } from "./git-fixture.ts";
import { createGitHttpHandler, type RecordedRequest as GitRequest } from "./git-http-server.ts";
import { publishRepository } from "./git-server-repos.ts";
import { checkQuickActions } from "./gitlab-conformance.ts";

export interface RecordedGitLabRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<http.IncomingHttpHeaders>;
  body: string;
  status: number;
}

export interface FakeGitLab {
  /** http://127.0.0.1:PORT — the value for GITLAB_URL. */
  readonly url: string;
  readonly token: string;
  readonly username: string;
  readonly requests: RecordedGitLabRequest[];
  readonly gitRequests: GitRequest[];
  readonly notes: FakeGitLabState["notes"];
  readonly drafts: FakeGitLabState["drafts"];
  readonly publishes: FakeGitLabState["publishes"];
  readonly statuses: FakeGitLabState["statuses"];
  readonly awards: FakeGitLabState["awards"];
  /**
   * Every text Loupe sent that GitLab reads as something written (a note's or draft's body, an
   * edit, a reply, a status's description), in order: GitLab runs quick actions in all but the last.
   */
  readonly written: string[];
  /** A person's note on a merge request, in a new discussion or in the discussion of `replyTo`. */
  addNote(input: {
    readonly project: string;
    readonly iid: number;
    readonly author: string;
    readonly body: string;
    readonly replyTo?: FakeNote;
  }): FakeNote;
  /** A person's award emoji (e.g. thumbsdown) on a note. */
  award(note: FakeNote, name: string, user: string): void;
  /** A person resolves the discussion `note` starts (PUT …/discussions/:id with resolved=true). */
  resolve(note: FakeNote, user: string): void;
  addProject(options: {
    readonly path: string;
    readonly source: FixtureRepo | string;
    readonly defaultBranch?: string;
    readonly members?: Readonly<Record<string, number>>;
  }): void;
  addMergeRequest(options: {
    readonly project: string;
    readonly iid: number;
    readonly sourceBranch: string;
    readonly targetBranch?: string;
    readonly title?: string;
    readonly author?: string;
    readonly draft?: boolean;
    /** A fork's merge request: the fork's project path, where `sourceBranch` is. */
    readonly sourceProject?: string;
    /** The instance's diff limits; GitLab's defaults when absent. */
    readonly diffLimits?: GitLabDiffLimits;
  }): FakeMergeRequest;
  /** The token user's access level in the project (e.g. 20: a Reporter, who may not set statuses). */
  setBotAccess(project: string, level: number): void;
  /** Deletes a branch of the project (a fork's target has none of the fork's branches). */
  deleteBranch(project: string, branch: string): void;
  /** `git push --force` of a fixture's branch to the project (then addMergeRequest again). */
  pushBranch(project: string, source: FixtureRepo, branch: string): void;
  /** The next bulk publish answers 500 at its n-th draft (1-based), the notes before it created. */
  failPublishAt(n: number): void;
  /** Answers the next `count` API requests 429 with Retry-After: retryAfter seconds. */
  limitNext(count: number, retryAfter: number): void;
  stop(): Promise<void>;
}

export async function startFakeGitLab(
  options: {
    readonly username?: string;
    readonly scopes?: readonly string[];
    readonly tokenType?: "personal" | "oauth";
  } = {},
): Promise<FakeGitLab> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-fake-gitlab-"));
  const requests: RecordedGitLabRequest[] = [];
  const gitRequests: GitRequest[] = [];
  const written: string[] = [];
  const username = options.username ?? "loupe-bot";
  const state: FakeGitLabState = {
    home: root,
    token: `glpat-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`,
    self: { id: 1, username },
    scopes: options.scopes ?? ["api"],
    tokenType: options.tokenType ?? "personal",
    users: new Map([[username, 1]]),
    projects: new Map(),
    mergeRequests: new Map(),
    notes: [],
    drafts: [],
    statuses: [],
    awards: [],
    publishes: [],
    failPublishAt: null,
    limited: { count: 0, retryAfter: 0 },
    nextId: 100,
  };
  const gitHandler = createGitHttpHandler({ root, requests: gitRequests });
  const server = http.createServer((req, res) => {
    const record: RecordedGitLabRequest = {
      method: req.method ?? "GET",
      url: req.url ?? "/",
      headers: { ...req.headers },
      body: "",
      status: 0,
    };
    requests.push(record);
    res.on("finish", () => {
      record.status = res.statusCode;
    });
    const url = new URL(record.url, "http://127.0.0.1");
    if (!url.pathname.startsWith("/api/v4/")) {
      if (!basicPassword(req.headers.authorization, state.token)) {
        req.resume();
        res.writeHead(401, { "WWW-Authenticate": 'Basic realm="GitLab"', "Content-Type": "text/plain" });
        res.end("HTTP Basic: Access denied.\n");
        return;
      }
      if (!gitHandler(req, res)) res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      record.body = Buffer.concat(chunks).toString("utf8");
      const reply = answer(state, record, url, written);
      res.writeHead(reply.status, {
        ...(reply.text === undefined
          ? { "Content-Type": "application/json" }
          : { "Content-Type": "text/plain" }),
        ...reply.headers,
      });
      if (record.method === "HEAD" || reply.status === 204) res.end();
      else res.end(reply.text ?? JSON.stringify(reply.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token: state.token,
    username,
    requests,
    gitRequests,
    notes: state.notes,
    drafts: state.drafts,
    publishes: state.publishes,
    statuses: state.statuses,
    awards: state.awards,
    written,
    award(note, name, user) {
      if (!state.users.has(user)) state.users.set(user, state.nextId++);
      state.awards.push({ id: state.nextId++, noteId: note.id, name, user });
    },
    resolve(note, user) {
      if (!state.users.has(user)) state.users.set(user, state.nextId++);
      // Resolving a discussion resolves each of its notes, by the one who resolved it (Discussion#resolve!).
      for (const n of state.notes.filter((n) => n.discussionId === note.discussionId)) {
        n.resolved = true;
        n.resolvedBy = user;
      }
    },
    addNote(input) {
      const project = state.projects.get(input.project);
      const mr = project && state.mergeRequests.get(`${project.id}!${input.iid}`);
      if (project === undefined || mr === undefined)
        throw new Error(`fake GitLab: no merge request ${input.project}!${input.iid}`);
      if (!state.users.has(input.author)) state.users.set(input.author, state.nextId++);
      const note = addNote(state, project, mr, { body: input.body, position: null, author: input.author });
      const first = input.replyTo;
      if (first === undefined) return note;
      if (first.type === null) first.type = "DiscussionNote";
      Object.assign(note, { discussionId: first.discussionId, position: first.position });
      note.type = first.type;
      return note;
    },
    addProject(project) {
      const gitdir = publishRepository(root, project.path, project.source);
      for (const name of Object.keys(project.members ?? {}))
        if (!state.users.has(name)) state.users.set(name, state.nextId++);
      state.projects.set(project.path, {
        id: state.nextId++,
        path: project.path,
        gitdir,
        defaultBranch: project.defaultBranch ?? "main",
        members: new Map(Object.entries(project.members ?? {})),
      });
    },
    addMergeRequest(input) {
      const project = state.projects.get(input.project);
      if (project === undefined) throw new Error(`fake GitLab: no project ${input.project}`);
      const target = input.targetBranch ?? project.defaultBranch;
      const rev = (ref: string) => git(project.gitdir, root, "rev-parse", "--verify", ref).trim();
      const source = input.sourceProject === undefined ? project : state.projects.get(input.sourceProject);
      if (source === undefined) throw new Error(`fake GitLab: no project ${input.sourceProject}`);
      const headRef = `refs/merge-requests/${input.iid}/head`;
      // GitLab keeps every merge request's head in the target project as this ref, a fork's
      // commits included (MergeRequest#fetch_ref!): a fork's head is on no branch of the target.
      git(
        project.gitdir,
        root,
        "fetch",
        "--quiet",
        source.gitdir,
        `+refs/heads/${input.sourceBranch}:${headRef}`,
      );
      const head = rev(headRef);
      const start = rev(`refs/heads/${target}`);
      const base = git(project.gitdir, root, "merge-base", start, head).trim();
      const mr: FakeMergeRequest = {
        projectId: project.id,
        iid: input.iid,
        title: input.title ?? `Change ${input.sourceBranch}`,
        description: "",
        state: "opened",
        draft: input.draft ?? false,
        sourceBranch: input.sourceBranch,
        targetBranch: target,
        author: input.author ?? "dev",
        ...(source === project ? {} : { sourceProjectId: source.id }),
        diffRefs: { base_sha: base, start_sha: start, head_sha: head },
        ...(() => {
          const cut = cutLikeGitLab(
            gitLabDiffs(project.gitdir, root, base, head),
            input.diffLimits ?? GITLAB_DEFAULT_DIFF_LIMITS,
          );
          return { diffs: cut.shown, overflow: cut.overflow };
        })(),
      };
      if (!state.users.has(mr.author)) state.users.set(mr.author, state.nextId++);
      state.mergeRequests.set(`${project.id}!${input.iid}`, mr);
      // Adding it again is a push to its source branch: GitLab traces its diff notes to the new diff.
      tracePositions(project.gitdir, root, mr, state.notes);
      return mr;
    },
    pushBranch(path, source, branch) {
      const project = state.projects.get(path);
      if (project === undefined) throw new Error(`fake GitLab: no project ${path}`);
      source.git("push", "--quiet", "--force", project.gitdir, `${branch}:refs/heads/${branch}`);
    },
    failPublishAt(n) {
      state.failPublishAt = n;
    },
    setBotAccess(path, level) {
      const project = state.projects.get(path);
      if (project === undefined) throw new Error(`fake GitLab: no project ${path}`);
      project.botAccess = level;
    },
    deleteBranch(path, branch) {
      const project = state.projects.get(path);
      if (project === undefined) throw new Error(`fake GitLab: no project ${path}`);
      git(project.gitdir, root, "update-ref", "-d", `refs/heads/${branch}`);
    },
    limitNext(count, retryAfter) {
      state.limited = { count, retryAfter };
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(root, { recursive: true, force: true });
      // Every suite that talks to this fake asserts it: no text Loupe sent could run a command.
      const verdict = checkQuickActions(written);
      if (verdict.status !== 0) throw new Error(`Loupe sent GitLab a live quick action:\n${verdict.output}`);
    },
  };
}

/** The fields of a request GitLab stores as written text (and runs quick actions in, but a status's). */
const WRITTEN_FIELDS = ["body", "note", "description"];

function answer(state: FakeGitLabState, record: RecordedGitLabRequest, url: URL, written: string[]) {
  if (record.headers["private-token"] !== state.token)
    return { status: 401, body: { message: "401 Unauthorized" } };
  if (state.limited.count > 0) {
    state.limited.count--;
    return {
      status: 429,
      headers: { "Retry-After": String(state.limited.retryAfter) },
      body: { message: "429 Too Many Requests" },
    };
  }
  let body: Record<string, unknown> = {};
  try {
    body = record.body === "" ? {} : (JSON.parse(record.body) as Record<string, unknown>);
  } catch {
    return { status: 400, body: { error: "The provided content-type 'application/json' is not supported." } };
  }
  if (record.method === "POST" || record.method === "PUT")
    for (const field of WRITTEN_FIELDS)
      if (typeof body[field] === "string") written.push(body[field] as string);
  // GitLab's API paths keep a project's path URL-encoded as one segment (group%2Fapp).
  const apiPath = url.pathname.slice("/api/v4".length);
  return routeGitLab(state, { method: record.method, path: apiPath, query: url.searchParams, body });
}

/** GitLab's git over HTTP: Basic, any user name, the access token as the password. */
function basicPassword(header: string | undefined, token: string): boolean {
  if (header?.startsWith("Basic ") !== true) return false;
  const decoded = Buffer.from(header.slice(6), "base64").toString("utf8");
  return decoded.slice(decoded.indexOf(":") + 1) === token;
}
