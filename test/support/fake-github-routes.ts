// The REST routes of the fake GitHub (under /api/v3), each answering with GitHub's status codes and
// body shapes. Pure over the shared state except for native git reads of the repository.

import type crypto from "node:crypto";
import type http from "node:http";
import { newInstallationToken, presentedToken, verifyAppJwt } from "./fake-github-auth.ts";
import { applyCheckRunWrite, type CheckRun, checkRunJson } from "./fake-github-checks.ts";
import { collaboratorRoute } from "./fake-github-collaborators.ts";
import {
  type CompareFile,
  compareCommits,
  readFileAt,
  resolveCommit,
  withinFileDiffLimit,
} from "./fake-github-compare.ts";
import { type PayloadTarget, type PullRequestFacts, pullRequestObject } from "./fake-github-payloads.ts";
import {
  createReview,
  listReviewComments,
  listReviews,
  type StoredReview,
} from "./fake-github-review-store.ts";
import { type ThreadState, threadRestRoute } from "./fake-github-threads.ts";
import { runGitAsync } from "./git-fixture.ts";

export interface FakeRepository {
  readonly owner: string;
  readonly repo: string;
  readonly gitdir: string;
  readonly defaultBranch: string;
  readonly installationId: number;
  readonly config: string | undefined;
  /** Where `config` lives on the default branch (`.github/loupe.yml` unless a test moves it). */
  readonly configPath: string;
  readonly collaborators: Readonly<Record<string, string>>;
  /** Leave out a file's patch past GitHub's per-file diff limit, as GitHub does. */
  readonly fileDiffLimit: boolean;
}

/** A check run's completion the fake holds back (see FakeGitHub.holdCompletion). */
export interface CompletionHold {
  readonly arrived: () => void;
  readonly released: Promise<void>;
}

export interface FakeState extends ThreadState {
  readonly completionHolds: Map<string, CompletionHold>;
  readonly appId: string;
  readonly publicKey: crypto.KeyObject;
  /** HOME for native git commands. */
  readonly home: string;
  apiBase: string;
  htmlBase: string;
  readonly repositories: Map<string, FakeRepository>;
  readonly pulls: Map<string, PullRequestFacts>;
  /**
   * readOnly: a workflow token that may only read (a fork's `pull_request`): writes answer 403.
   * noChecks: a workflow token without `checks: write`: check-run writes answer 403.
   * checksOnly: a workflow token with `checks: write` alone: every other write answers 403.
   */
  readonly tokens: Map<
    string,
    {
      installationId: number;
      expiresAt: number;
      readOnly?: boolean;
      noChecks?: boolean;
      checksOnly?: boolean;
    }
  >;
  readonly checkRuns: CheckRun[];
  readonly reviews: StoredReview[];
  /** Reactions Loupe added to comments (the 👀 of a command). */
  readonly reactions: {
    readonly owner: string;
    readonly repo: string;
    readonly commentId: number;
    readonly content: string;
  }[];
  nextId: number;
}

export interface ApiRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

export interface ApiReply {
  readonly status: number;
  readonly body: unknown;
  readonly contentType?: string;
  readonly headers?: Record<string, string>;
}

const DOCS = "https://docs.github.com/rest";
export const error = (status: number, message: string, extra: Record<string, unknown> = {}): ApiReply => ({
  status,
  body: { message, documentation_url: DOCS, status: String(status), ...extra },
});
const TOKEN_LIFETIME_MS = 60 * 60 * 1000;

export async function routeApiRequest(state: FakeState, request: ApiRequest): Promise<ApiReply> {
  const url = new URL(request.url, "http://127.0.0.1");
  const route = url.pathname.slice("/api/v3".length);
  let body: Record<string, unknown> = {};
  if (request.body !== "") {
    try {
      body = JSON.parse(request.body) as Record<string, unknown>;
    } catch {
      return error(400, "Problems parsing JSON");
    }
  }

  const tokenRoute = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(route);
  if (tokenRoute && request.method === "POST") {
    const check = verifyAppJwt(request.headers.authorization, {
      appId: state.appId,
      publicKey: state.publicKey,
    });
    if (!check.ok) return error(401, check.message);
    const installationId = Number(tokenRoute[1]);
    if (![...state.repositories.values()].some((r) => r.installationId === installationId)) {
      return error(404, "Not Found");
    }
    const token = newInstallationToken();
    const expiresAt = Date.now() + TOKEN_LIFETIME_MS;
    state.tokens.set(token, { installationId, expiresAt });
    return {
      status: 201,
      body: {
        token,
        expires_at: new Date(expiresAt).toISOString().replace(/\.\d{3}Z$/, "Z"),
        permissions: { checks: "write", contents: "read", metadata: "read", pull_requests: "write" },
        repository_selection: "selected",
      },
    };
  }

  if (route === "/app" && request.method === "GET") {
    const check = verifyAppJwt(request.headers.authorization, {
      appId: state.appId,
      publicKey: state.publicKey,
    });
    if (!check.ok) return error(401, check.message);
    const owner = { login: "loupe-dev", id: 1, type: "Organization" };
    return { status: 200, body: { id: Number(state.appId), slug: "loupe", name: "Loupe", owner } };
  }

  const presented = state.tokens.get(presentedToken(request.headers.authorization) ?? "");
  if (presented === undefined || presented.expiresAt <= Date.now()) return error(401, "Bad credentials");
  const repoRoute = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(route);
  const repository = repoRoute ? state.repositories.get(`${repoRoute[1]}/${repoRoute[2]}`) : undefined;
  if (!repoRoute || repository === undefined || repository.installationId !== presented.installationId) {
    return error(404, "Not Found");
  }
  const rest = repoRoute[3] ?? "";
  const checkWrite = request.method !== "GET" && /^\/check-runs(\/|$)/.test(rest);
  if (
    (presented.readOnly === true ||
      (presented.noChecks === true && checkWrite) ||
      (presented.checksOnly === true && !checkWrite)) &&
    request.method !== "GET"
  ) {
    return error(403, "Resource not accessible by integration");
  }
  const target: PayloadTarget = { htmlBase: state.htmlBase, ...repository };
  const where = { gitdir: repository.gitdir, home: state.home };
  const pullOf = (n: string) => state.pulls.get(`${repository.owner}/${repository.repo}#${n}`);
  const on = (method: string, pattern: RegExp) => (request.method === method ? pattern.exec(rest) : null);
  let match: RegExpExecArray | null = null;

  match = on("GET", /^\/contents\/(.+)$/);
  if (match) {
    const file = decodeURIComponent(match[1]!);
    // Any other file is served from the default branch, as GitHub's contents API without a ref.
    if (file !== repository.configPath) {
      const text = await readFileAt(where, repository.defaultBranch, file);
      if (text === undefined) return error(404, "Not Found");
      const content = Buffer.from(text).toString("base64");
      const name = file.split("/").pop();
      return {
        status: 200,
        body: { type: "file", encoding: "base64", size: Buffer.byteLength(text), path: file, name, content },
      };
    }
    if (repository.config === undefined) return error(404, "Not Found");
    if (/raw/.test(String(request.headers.accept))) {
      return {
        status: 200,
        body: repository.config,
        contentType: "application/vnd.github.raw; charset=utf-8",
      };
    }
    const content = Buffer.from(repository.config).toString("base64");
    return {
      status: 200,
      body: {
        type: "file",
        encoding: "base64",
        size: Buffer.byteLength(repository.config),
        path: file,
        name: file.split("/").pop(),
        content,
      },
    };
  }
  const thread = threadRestRoute(state, repository, { method: request.method, rest, body });
  if (thread !== null) return thread;
  const collaborator = collaboratorRoute(repository, request.method, rest);
  if (collaborator !== null) return collaborator;
  match = on("GET", /^\/pulls\/(\d+)$/);
  if (match) {
    const pr = pullOf(match[1]!);
    return pr ? { status: 200, body: pullRequestObject(target, pr) } : error(404, "Not Found");
  }
  match = on("GET", /^\/git\/commits\/([0-9a-f]{40})$/);
  if (match) {
    // GET /repos/{owner}/{repo}/git/commits/{sha}: the commit and its tree, read from the real repository.
    const sha = await resolveCommit(where, match[1]!);
    if (sha === undefined) return error(404, "Not Found");
    const tree = await runGitAsync(["rev-parse", `${sha}^{tree}`], { cwd: where.gitdir, home: where.home });
    return { status: 200, body: { sha, tree: { sha: tree.trim() }, parents: [] } };
  }
  match = on("GET", /^\/compare\/(.+?)(\.\.\.?)(.+)$/);
  if (match) {
    const [base, head] = await Promise.all([
      resolveCommit(where, decodeURIComponent(match[1]!)),
      resolveCommit(where, decodeURIComponent(match[3]!)),
    ]);
    if (base === undefined || head === undefined) return error(404, "Not Found");
    const c = await compareCommits(where, base, head, match[2] === "...");
    const commit = (sha: string) => ({
      sha,
      url: `${state.apiBase}/repos/${repository.owner}/${repository.repo}/commits/${sha}`,
    });
    return {
      status: 200,
      body: {
        url: `${state.apiBase}/repos/${repository.owner}/${repository.repo}/compare/${match[1]}${match[2]}${match[3]}`,
        status: c.status,
        ahead_by: c.aheadBy,
        behind_by: c.behindBy,
        total_commits: c.commits.length,
        base_commit: commit(c.baseSha),
        merge_base_commit: commit(c.mergeBaseSha),
        commits: c.commits.map(commit),
        // GitHub's comparison lists at most 300 files; the pull request's list goes on to 3,000.
        files: listed(repository, c.files.slice(0, COMPARE_FILES)),
      },
    };
  }
  match = on("GET", /^\/pulls\/(\d+)\/files$/);
  if (match) {
    const pr = pullOf(match[1]!);
    if (!pr) return error(404, "Not Found");
    const c = await compareCommits(where, `refs/heads/${pr.baseRef}`, pr.headSha);
    return paginate(listed(repository, c.files.slice(0, LISTED_FILES)), url, state);
  }
  match = /^\/pulls\/(\d+)\/(reviews|comments)$/.exec(rest);
  if (match) {
    const pr = pullOf(match[1]!);
    if (!pr) return error(404, "Not Found");
    if (request.method === "GET") {
      const items =
        match[2] === "reviews"
          ? listReviews(state, repository, pr.number)
          : listReviewComments(state, repository, pr.number);
      return paginate(items, url, state);
    }
    if (request.method === "POST" && match[2] === "reviews") return createReview(state, repository, pr, body);
  }
  match = on("POST", /^\/(issues|pulls)\/comments\/(\d+)\/reactions$/);
  if (match) {
    const content = String(body.content);
    if (!["+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"].includes(content)) {
      return error(422, "Validation Failed", {
        errors: [{ resource: "Reaction", code: "invalid", field: "content" }],
      });
    }
    state.reactions.push({
      owner: repository.owner,
      repo: repository.repo,
      commentId: Number(match[2]),
      content,
    });
    return { status: 201, body: { id: state.nextId++, content } };
  }
  if (request.method === "POST" && rest === "/check-runs") {
    const result = applyCheckRunWrite(body, undefined);
    if (!result.ok) return error(422, result.message);
    const headSha = await resolveCommit(where, String(body.head_sha));
    if (headSha === undefined || headSha !== body.head_sha) {
      return error(422, "Validation Failed", {
        errors: [{ resource: "CheckRun", code: "invalid", field: "head_sha" }],
      });
    }
    const run: CheckRun = {
      id: state.nextId++,
      owner: repository.owner,
      repo: repository.repo,
      name: String(body.name),
      headSha,
      externalId: typeof body.external_id === "string" ? body.external_id : null,
      history: [result.state],
    };
    state.checkRuns.push(run);
    return { status: 201, body: checkRunJson(run, state.apiBase) };
  }
  match = on("GET", /^\/commits\/([^/]+)\/check-runs$/);
  if (match) {
    // GitHub's "list check runs for a Git reference" (a SHA here), filtered by name and status.
    const headSha = await resolveCommit(where, decodeURIComponent(match[1]!));
    const name = url.searchParams.get("check_name");
    const status = url.searchParams.get("status");
    const runs = state.checkRuns.filter(
      (r) =>
        r.owner === repository.owner &&
        r.repo === repository.repo &&
        r.headSha === headSha &&
        (name === null || r.name === name) &&
        (status === null || r.history.at(-1)?.status === status),
    );
    const checkRuns = runs.map((run) => checkRunJson(run, state.apiBase));
    return { status: 200, body: { total_count: checkRuns.length, check_runs: checkRuns } };
  }
  match = /^\/check-runs\/(\d+)$/.exec(rest);
  if (match) {
    const run = state.checkRuns.find(
      (r) => r.id === Number(match?.[1]) && r.repo === repository.repo && r.owner === repository.owner,
    );
    if (!run) return error(404, "Not Found");
    if (request.method === "GET") return { status: 200, body: checkRunJson(run, state.apiBase) };
    if (request.method === "PATCH") {
      const hold = state.completionHolds.get(run.headSha);
      if (hold !== undefined && body.status === "completed") {
        // The test kills the App here: this write never reached GitHub.
        state.completionHolds.delete(run.headSha);
        hold.arrived();
        await hold.released;
        return error(502, "Server Error");
      }
      const result = applyCheckRunWrite(body, run.history[run.history.length - 1]);
      if (!result.ok) return error(422, result.message);
      run.history.push(result.state);
      return { status: 200, body: checkRunJson(run, state.apiBase) };
    }
  }
  return error(404, "Not Found");
}

/** GitHub-style pagination: per_page (≤ 100, default 30), page, and a Link header. */
/** GitHub's caps: a comparison lists 300 files, pulls.listFiles 3,000 (100 a page at most). */
const COMPARE_FILES = 300;
const LISTED_FILES = 3000;

function paginate(items: readonly unknown[], url: URL, state: FakeState): ApiReply {
  const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get("per_page") ?? 30) || 30));
  const page = Math.max(1, Number(url.searchParams.get("page") ?? 1) || 1);
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const headers: Record<string, string> = {};
  if (page * perPage < items.length) {
    const next = new URL(`${state.apiBase}${url.pathname.slice("/api/v3".length)}`);
    next.searchParams.set("per_page", String(perPage));
    next.searchParams.set("page", String(page + 1));
    headers.Link = `<${next.toString()}>; rel="next"`;
  }
  return { status: 200, body: slice, headers };
}

function listed(repository: FakeRepository, files: readonly CompareFile[]): readonly CompareFile[] {
  return repository.fileDiffLimit ? files.map(withinFileDiffLimit) : files;
}
