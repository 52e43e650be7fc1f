// A fake GitHub for running Loupe as a real server process: one node:http server on 127.0.0.1 that
// serves the REST subset Probot/Octokit call under /api/v3 (what GHE_HOST=127.0.0.1:<port> with
// GHE_PROTOCOL=http points them at) and the git smart-HTTP endpoints at /<owner>/<repo>.git/…
// through a real `git http-backend`. Every request must carry a live installation token (the
// token exchange itself a JWT signed with the App's key); every request is recorded.
//
//   const github = await startFakeGitHub();
//   github.addRepository({ owner: "octo", repo: "app", source: fixture });
//   const pr = github.addPullRequest({ owner: "octo", repo: "app", number: 7, headRef: "feature" });
//   spawn Loupe with { APP_ID: github.appId, PRIVATE_KEY: github.privateKey, GHE_HOST: github.host }
//   github.checkRuns / github.reviews / github.requests
//   await github.stop();

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { generateAppKey, newInstallationToken, presentedToken } from "./fake-github-auth.ts";
import type { CheckRun } from "./fake-github-checks.ts";
import { createManifestFlow, type ManifestFlow, type ManifestReply } from "./fake-github-manifests.ts";
import type { PullRequestFacts } from "./fake-github-payloads.ts";
import { type FakeState, routeApiRequest } from "./fake-github-routes.ts";
import { addPersonReply, graphqlRoute, setThreadResolved } from "./fake-github-threads.ts";
import { type FixtureRepo, gitEnvironment } from "./git-fixture.ts";
import { createGitHttpHandler, type RecordedRequest as GitRequest } from "./git-http-server.ts";
import { publishRepository, setRef } from "./git-server-repos.ts";

export interface RecordedApiRequest {
  readonly method: string;
  /** Path and query exactly as received. */
  readonly url: string;
  readonly headers: Readonly<http.IncomingHttpHeaders>;
  /** The request body as text (git requests: empty; their bodies are pack negotiation). */
  body: string;
  status: number;
  /** When it arrived (performance.now(), this process's clock): for spacings, never durations. */
  readonly receivedAt: number;
}

export interface FakeRepositoryOptions {
  readonly owner: string;
  readonly repo: string;
  readonly source: FixtureRepo | string;
  readonly defaultBranch?: string;
  readonly installationId?: number;
  /** Text of `.github/loupe.yml` on the default branch; absent → 404. */
  readonly config?: string;
  /** Where `config` is served instead of `.github/loupe.yml` (the GitHub Action's `config` input). */
  readonly configPath?: string;
  /** People with a role on the repository (login → admin, maintain, write, triage, read). */
  readonly collaborators?: Readonly<Record<string, string>>;
  /**
   * Leave out a file's `patch` past GitHub's per-file diff limit (20,000 lines or 1 MB), as GitHub
   * does. Off by default: some tests anchor findings in files larger than that.
   */
  readonly fileDiffLimit?: boolean;
}

export interface FakePullRequestOptions {
  readonly owner: string;
  readonly repo: string;
  readonly number: number;
  /** Branch of the PR head (must exist in the source); its tip is the head SHA. */
  readonly headRef: string;
  readonly baseRef?: string;
  readonly title?: string;
  readonly body?: string | null;
}

export interface FakeGitHub {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  /** 127.0.0.1:PORT — the value for GHE_HOST. */
  readonly host: string;
  readonly appId: string;
  /** PKCS#1 PEM of the App's key (the fake holds the public half). */
  readonly privateKey: string;
  readonly requests: RecordedApiRequest[];
  readonly gitRequests: GitRequest[];
  readonly issuedTokens: string[];
  readonly checkRuns: CheckRun[];
  readonly reviews: FakeState["reviews"];
  readonly reactions: FakeState["reactions"];
  readonly threadReplies: FakeState["threadReplies"];
  /** Root comment ids of the review threads resolved through GraphQL. */
  readonly resolvedThreads: FakeState["resolvedThreads"];
  /**
   * Holds back the next PATCH that completes a check run on `headSha`: `arrived` resolves when it
   * comes; after `release()` it is dropped with a 502, as a write that never reached GitHub.
   */
  holdCompletion(headSha: string): { readonly arrived: Promise<void>; release(): void };
  /** A person's reply in a review thread, as typed on github.com; returns the new comment's id. */
  addPersonReply(input: Parameters<typeof addPersonReply>[1]): number;
  /** Reactions people add to review comments (push one to react as them). */
  readonly personReactions: FakeState["personReactions"];
  /** A person resolves a thread (by its root comment id) on github.com; null unresolves it. */
  setThreadResolved(rootId: number, login: string | null): void;
  /** `git push --force` of a fixture's branch to the fake's copy (then addPullRequest again). */
  pushBranch(owner: string, repo: string, source: FixtureRepo, branch: string): void;
  /** Apps registered through the manifest flow (the "new App" page, then the code conversion). */
  readonly registrations: ManifestFlow["registrations"];
  addRepository(options: FakeRepositoryOptions): void;
  /** Commits a new `.github/loupe.yml` to the repository's default branch (undefined: deletes it). */
  setConfig(owner: string, repo: string, text: string | undefined): void;
  addPullRequest(options: FakePullRequestOptions): PullRequestFacts;
  /**
   * A GitHub Actions workflow token for the repository (GITHUB_TOKEN): it reads and writes what the
   * repository's installation may, or only reads (a fork's `pull_request`: every write answers 403),
   * or everything but check runs (a workflow without `checks: write`), or check runs alone (a
   * workflow whose `permissions:` give `checks: write` but not `pull-requests: write`).
   */
  workflowToken(
    owner: string,
    repo: string,
    options?: { readonly readOnly?: boolean; readonly noChecks?: boolean; readonly checksOnly?: boolean },
  ): string;
  /** The repository's installation id (default 1). */
  installationOf(owner: string, repo: string): number;
  stop(): Promise<void>;
}

export interface StartFakeGitHubOptions {
  readonly appId?: string;
  /**
   * GitHub paces an installation's writes (POST, PATCH, PUT, DELETE) about one a second: each
   * write is answered at least this long after the installation's previous one. Off by default.
   */
  readonly paceWritesMs?: number;
}

export async function startFakeGitHub(options: StartFakeGitHubOptions = {}): Promise<FakeGitHub> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-fake-github-"));
  const key = generateAppKey();
  const appId = options.appId ?? "4242";
  const requests: RecordedApiRequest[] = [];
  const gitRequests: GitRequest[] = [];
  const state: FakeState = {
    appId,
    publicKey: key.publicKey,
    home: root,
    apiBase: "",
    htmlBase: "",
    repositories: new Map(),
    pulls: new Map(),
    tokens: new Map(),
    checkRuns: [],
    reviews: [],
    reactions: [],
    threadReplies: [],
    resolvedThreads: new Set(),
    threadResolvers: new Map(),
    personReactions: [],
    completionHolds: new Map(),
    nextId: 1000,
  };
  const git = createGitHttpHandler({ root, requests: gitRequests });
  const paced = createWritePacing(options.paceWritesMs ?? 0);
  const manifests = createManifestFlow({ appId, privateKey: key.privateKey, htmlBase: () => state.htmlBase });
  const reply = (res: http.ServerResponse, answer: ManifestReply) => {
    const json = typeof answer.body !== "string";
    res.writeHead(answer.status, {
      "Content-Type": json ? "application/json; charset=utf-8" : "text/plain",
      ...answer.headers,
    });
    res.end(json ? JSON.stringify(answer.body) : answer.body);
  };

  const server = http.createServer((req, res) => {
    const record: RecordedApiRequest = {
      method: req.method ?? "GET",
      url: req.url ?? "/",
      headers: { ...req.headers },
      body: "",
      status: 0,
      receivedAt: performance.now(),
    };
    requests.push(record);
    res.on("finish", () => {
      record.status = res.statusCode;
    });
    const { pathname, search } = new URL(record.url, "http://127.0.0.1");
    const conversion = manifests.convert(record.method, pathname);
    if (conversion !== null) {
      req.resume();
      reply(res, conversion);
      return;
    }
    if (record.method === "POST" && pathname.endsWith("/settings/apps/new")) {
      const form: Buffer[] = [];
      req.on("data", (chunk: Buffer) => form.push(chunk));
      req.on("end", () => {
        record.body = Buffer.concat(form).toString("utf8");
        reply(res, manifests.newApp(pathname, search, record.body) ?? { status: 404, body: "Not Found" });
      });
      return;
    }
    if (record.method === "POST" && pathname === "/api/graphql") {
      // GitHub Enterprise's GraphQL endpoint (Octokit derives it from the /api/v3 base URL).
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        record.body = Buffer.concat(chunks).toString("utf8");
        const token = state.tokens.get(presentedToken(req.headers.authorization) ?? "");
        const answer =
          token === undefined || token.expiresAt <= Date.now()
            ? { status: 401, body: { message: "Bad credentials" } }
            : (token.readOnly === true || token.checksOnly === true) &&
                /^\s*mutation\b/.test(String(JSON.parse(record.body).query))
              ? { status: 403, body: { message: "Resource not accessible by integration" } }
              : graphqlRoute(state, token.installationId, record.body);
        reply(res, answer as ManifestReply);
      });
      return;
    }
    if (!pathname.startsWith("/api/v3/")) {
      const [, owner, repoGit] = pathname.split("/");
      const repository = state.repositories.get(`${owner}/${repoGit?.replace(/\.git$/, "")}`);
      const token = state.tokens.get(presentedToken(req.headers.authorization) ?? "");
      const allowed =
        repository !== undefined &&
        token !== undefined &&
        token.expiresAt > Date.now() &&
        token.installationId === repository.installationId;
      if (!allowed) {
        req.resume();
        res.writeHead(401, { "WWW-Authenticate": 'Basic realm="GitHub"', "Content-Type": "text/plain" });
        res.end("Invalid username or token. Password authentication is not supported for Git operations.\n");
        return;
      }
      if (!git(req, res)) res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      record.body = Buffer.concat(chunks).toString("utf8");
      const installationId = state.tokens.get(
        presentedToken(req.headers.authorization) ?? "",
      )?.installationId;
      paced(installationId, record.method, () =>
        routeApiRequest(state, {
          method: record.method,
          url: record.url,
          headers: req.headers,
          body: record.body,
        }),
      )
        .then((reply) => {
          res.writeHead(reply.status, {
            "Content-Type": reply.contentType ?? "application/json; charset=utf-8",
            "X-GitHub-Media-Type": "github.v3; format=json",
            "X-RateLimit-Limit": "5000",
            "X-RateLimit-Remaining": "4999",
            "X-RateLimit-Reset": String(Math.floor(Date.now() / 1000) + 3600),
            ...reply.headers,
          });
          res.end(typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body));
        })
        .catch((error: unknown) => {
          res.writeHead(500, { "Content-Type": "text/plain" });
          res.end(`fake GitHub failed: ${error instanceof Error ? error.message : String(error)}`);
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const host = `127.0.0.1:${port}`;
  state.htmlBase = `http://${host}`;
  state.apiBase = `http://${host}/api/v3`;

  return {
    url: state.htmlBase,
    host,
    appId,
    privateKey: key.privateKey,
    requests,
    gitRequests,
    get issuedTokens() {
      return [...state.tokens.keys()];
    },
    checkRuns: state.checkRuns,
    reviews: state.reviews,
    reactions: state.reactions,
    threadReplies: state.threadReplies,
    resolvedThreads: state.resolvedThreads,
    addPersonReply: (input) => addPersonReply(state, input),
    personReactions: state.personReactions,
    setThreadResolved: (rootId, login) => setThreadResolved(state, rootId, login),
    pushBranch(owner, repo, source, branch) {
      const repository = state.repositories.get(`${owner}/${repo}`);
      if (repository === undefined) throw new Error(`fake GitHub: no repository ${owner}/${repo}`);
      source.git("push", "--quiet", "--force", repository.gitdir, `${branch}:refs/heads/${branch}`);
    },
    holdCompletion(headSha) {
      let arrived = (): void => {};
      let release = (): void => {};
      const arrival = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      state.completionHolds.set(headSha, { arrived, released });
      return { arrived: arrival, release };
    },
    registrations: manifests.registrations,
    addRepository(repository) {
      const gitdir = publishRepository(root, `${repository.owner}/${repository.repo}`, repository.source);
      state.repositories.set(`${repository.owner}/${repository.repo}`, {
        owner: repository.owner,
        repo: repository.repo,
        gitdir,
        defaultBranch: repository.defaultBranch ?? "main",
        installationId: repository.installationId ?? 1,
        config: repository.config,
        configPath: repository.configPath ?? ".github/loupe.yml",
        collaborators: repository.collaborators ?? {},
        fileDiffLimit: repository.fileDiffLimit === true,
      });
    },
    setConfig(owner, repo, text) {
      const repository = state.repositories.get(`${owner}/${repo}`);
      if (repository === undefined) throw new Error(`fake GitHub: no repository ${owner}/${repo}`);
      state.repositories.set(`${owner}/${repo}`, { ...repository, config: text });
    },
    addPullRequest(pr) {
      const repository = state.repositories.get(`${pr.owner}/${pr.repo}`);
      if (repository === undefined) throw new Error(`fake GitHub: no repository ${pr.owner}/${pr.repo}`);
      const rev = (ref: string) => gitRevParse(repository.gitdir, root, ref);
      const facts: PullRequestFacts = {
        number: pr.number,
        headRef: pr.headRef,
        headSha: rev(`refs/heads/${pr.headRef}`),
        baseRef: pr.baseRef ?? repository.defaultBranch,
        baseSha: rev(`refs/heads/${pr.baseRef ?? repository.defaultBranch}`),
        title: pr.title ?? `Change ${pr.headRef}`,
        body: pr.body ?? null,
      };
      setRef(repository.gitdir, `refs/pull/${pr.number}/head`, facts.headSha);
      state.pulls.set(`${pr.owner}/${pr.repo}#${pr.number}`, facts);
      return facts;
    },
    workflowToken(owner, repo, options = {}) {
      const repository = state.repositories.get(`${owner}/${repo}`);
      if (repository === undefined) throw new Error(`fake GitHub: no repository ${owner}/${repo}`);
      const token = newInstallationToken();
      state.tokens.set(token, {
        installationId: repository.installationId,
        expiresAt: Date.now() + 60 * 60 * 1000,
        readOnly: options.readOnly === true,
        noChecks: options.noChecks === true,
        checksOnly: options.checksOnly === true,
      });
      return token;
    },
    installationOf(owner, repo) {
      const repository = state.repositories.get(`${owner}/${repo}`);
      if (repository === undefined) throw new Error(`fake GitHub: no repository ${owner}/${repo}`);
      return repository.installationId;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

function gitRevParse(gitdir: string, home: string, ref: string): string {
  return execFileSync("git", ["rev-parse", "--verify", ref], {
    cwd: gitdir,
    env: gitEnvironment(home),
    encoding: "utf8",
  }).trim();
}

/** Writes of one installation answered one per interval, in arrival order; reads pass at once. */
function createWritePacing(intervalMs: number) {
  const turns = new Map<number, Promise<void>>();
  return async <T>(
    installationId: number | undefined,
    method: string,
    answer: () => Promise<T>,
  ): Promise<T> => {
    if (intervalMs <= 0 || installationId === undefined || method === "GET" || method === "HEAD")
      return answer();
    const previous = turns.get(installationId) ?? Promise.resolve();
    const mine = previous.then(() => new Promise<void>((resolve) => setTimeout(resolve, intervalMs)));
    turns.set(installationId, mine);
    await previous;
    return answer();
  };
}
