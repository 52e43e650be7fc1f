// GitHub's REST API for the Probot integration tests, with nock on https://api.github.com.
// Every request body Loupe sends is recorded (method, path, parsed JSON), so tests can assert
// exactly what reached GitHub — and that no token or key ever appears in it.

import { Readable } from "node:stream";
import nock from "nock";

export const GITHUB_API = "https://api.github.com";
export const INSTALLATION_TOKEN = "ghs_InstallationTokenForTests0123456789";
export const BOT_LOGIN = "loupe-test[bot]";

export interface RecordedCall {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}

type Reply = [number, unknown] | [number, unknown, Record<string, string>];

export interface GitHubMock {
  readonly calls: RecordedCall[];
  /** Bodies of every PATCH to the check run, in order (progress updates, then completion). */
  checkRunUpdates(id?: number): Record<string, unknown>[];
  /** The last PATCH of the check run (the completion). */
  completion(id?: number): Record<string, unknown>;
  reviewsPosted(): Record<string, unknown>[];
  token(): GitHubMock;
  app(slug?: string): GitHubMock;
  createCheckRun(id: number, times?: number): GitHubMock;
  /** PATCH …/check-runs/:id, persisted: progress updates are as many as the loop's rounds allow. */
  updateCheckRun(id: number): GitHubMock;
  configMissing(): GitHubMock;
  configFile(text: string): GitHubMock;
  pullsGet(number: number, data: Record<string, unknown>): GitHubMock;
  compare(basehead: string, data: Record<string, unknown>): GitHubMock;
  listReviewComments(number: number, comments?: unknown[]): GitHubMock;
  listReviews(number: number, reviews?: unknown[]): GitHubMock;
  createReview(number: number, reply?: Reply | ((body: Record<string, unknown>) => Reply)): GitHubMock;
  /** The conversation: 👀 reactions, comments, replies, labels, permissions, GraphQL threads. */
  reaction(source: "issue_comment" | "review_comment", commentId: number): GitHubMock;
  issueComment(number: number): GitHubMock;
  /** GET …/collaborators/:login/permission: `permission` and `role_name` (default the same), or a failure status. */
  permission(login: string, permission: string, roleName?: string, status?: number): GitHubMock;
  addLabel(number: number): GitHubMock;
  removeLabel(number: number, label: string, status?: number): GitHubMock;
  reviewComment(id: number, data: Record<string, unknown>): GitHubMock;
  replyInThread(number: number, rootId: number): GitHubMock;
  /** POST /graphql, answered by the handler from the query text and variables. */
  graphql(answer: (query: string, variables: Record<string, unknown>) => unknown, times?: number): GitHubMock;
  /** Bodies of the POSTs whose path ends with `suffix`. */
  posted(suffix: string): Record<string, unknown>[];
  /** Anything else, by hand. */
  readonly scope: nock.Scope;
  /** Interceptors not yet used (the test must end with none). */
  pending(): string[];
}

function parse(body: unknown): unknown {
  if (typeof body !== "string" || body === "") return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

export interface MockGitHubOptions {
  /**
   * Answer each call as a real socket would: after a turn of the event loop, with the body in
   * chunks (`socketBody`). Without it, a mocked review runs as one chain of microtasks, so timers
   * (an event-loop probe) never get a turn, and nock serializes a large answer inside the app's turn.
   */
  readonly network?: boolean;
}

const SOCKET_CHUNK = 64 * 1024;

/**
 * A JSON answer delivered the way a socket delivers it: serialized first (or already), then 64 KiB
 * a turn of the event loop. The work left in the reader's turns is then the app's own (and its HTTP
 * client's): nock, given an object, would serialize it in the turn the client goes on to parse it.
 */
export function socketBody(data: unknown): Readable {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(JSON.stringify(data), "utf8");
  let offset = 0;
  return new Readable({
    read() {
      setImmediate(() => {
        const end = Math.min(offset + SOCKET_CHUNK, bytes.length);
        this.push(offset < bytes.length ? bytes.subarray(offset, end) : null);
        offset = end;
      });
    },
  });
}

export const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" };

/** `reply` as `socketBody` delivers it; an empty or text body is left to nock. */
function overSocket(reply: Reply): Reply {
  const [status, body, headers] = reply;
  if (body === undefined || typeof body === "string") return reply;
  return [status, socketBody(body), { ...JSON_HEADERS, ...headers }];
}

export function mockGitHub(
  owner: string,
  repo: string,
  installationId: number,
  options: MockGitHubOptions = {},
): GitHubMock {
  const scope = nock(GITHUB_API);
  const persisted = nock(GITHUB_API).persist();
  const calls: RecordedCall[] = [];
  const repoPath = `/repos/${owner}/${repo}`;
  // nock 15 hands a reply function the Fetch Request (one parameter: with two, it would treat the
  // second as a callback and never answer).
  const recording =
    (method: string, reply: (body: unknown) => Reply) =>
    async (request: Request): Promise<Reply> => {
      const parsed = parse(await request.clone().text());
      const url = new URL(request.url);
      calls.push({ method, path: decodeURIComponent(url.pathname), body: parsed });
      if (options.network !== true) return reply(parsed);
      await new Promise((resolve) => setTimeout(resolve, 0));
      return overSocket(reply(parsed));
    };

  // GitHub answers 404 for `<owner>/.github` when the installation does not include it: the
  // organisation layer is read right after the repository's file, so each read of one is paired.
  const organisationMissing = () => {
    scope
      .get(`/repos/${owner}/.github/contents/.github%2Floupe.yml`)
      .reply(recording("GET", () => [404, { message: "Not Found" }]));
    return mock;
  };
  const mock: GitHubMock = {
    calls,
    scope,
    checkRunUpdates: (id = 1) =>
      calls
        .filter((c) => c.method === "PATCH" && c.path === `${repoPath}/check-runs/${id}`)
        .map((c) => c.body as Record<string, unknown>),
    completion(id = 1) {
      const updates = mock.checkRunUpdates(id).filter((b) => b.status === "completed");
      if (updates.length !== 1)
        throw new Error(`expected one completion of check run ${id}, got ${updates.length}`);
      return updates[0]!;
    },
    reviewsPosted: () =>
      calls
        .filter((c) => c.method === "POST" && /\/pulls\/\d+\/reviews$/.test(c.path))
        .map((c) => c.body as Record<string, unknown>),
    token() {
      scope
        .post(`/app/installations/${installationId}/access_tokens`)
        .reply(
          recording("POST", () => [
            201,
            { token: INSTALLATION_TOKEN, expires_at: new Date(Date.now() + 3_600_000).toISOString() },
          ]),
        );
      return mock;
    },
    app(slug = BOT_LOGIN.replace(/\[bot\]$/, "")) {
      scope.get("/app").reply(recording("GET", () => [200, { id: 123, slug, name: "Loupe test" }]));
      return mock;
    },
    createCheckRun(id, times = 1) {
      scope
        .post(`${repoPath}/check-runs`)
        .times(times)
        .reply(recording("POST", () => [201, { id }]));
      return mock;
    },
    updateCheckRun(id) {
      persisted.patch(`${repoPath}/check-runs/${id}`).reply(recording("PATCH", () => [200, { id }]));
      return mock;
    },
    configMissing() {
      scope
        .get(`${repoPath}/contents/.github%2Floupe.yml`)
        .reply(recording("GET", () => [404, { message: "Not Found" }]));
      return organisationMissing();
    },
    configFile(text) {
      const content = Buffer.from(text, "utf8");
      organisationMissing();
      scope.get(`${repoPath}/contents/.github%2Floupe.yml`).reply(
        recording("GET", () => [
          200,
          {
            type: "file",
            name: "loupe.yml",
            path: ".github/loupe.yml",
            size: content.length,
            encoding: "base64",
            content: content.toString("base64"),
          },
        ]),
      );
      return mock;
    },
    pullsGet(number, data) {
      scope.get(`${repoPath}/pulls/${number}`).reply(recording("GET", () => [200, data]));
      return mock;
    },
    compare(basehead, data) {
      // Over the network, serialized now: a 300-file answer takes GitHub's time, not the app's turn.
      const body = options.network === true ? Buffer.from(JSON.stringify(data), "utf8") : data;
      scope.get(`${repoPath}/compare/${basehead}`).reply(recording("GET", () => [200, body]));
      return mock;
    },
    listReviewComments(number, comments = []) {
      scope
        .get(`${repoPath}/pulls/${number}/comments`)
        .query(true)
        .reply(recording("GET", () => [200, comments]));
      return mock;
    },
    listReviews(number, reviews = []) {
      scope
        .get(`${repoPath}/pulls/${number}/reviews`)
        .query(true)
        .reply(recording("GET", () => [200, reviews]));
      return mock;
    },
    createReview(number, reply = [200, { id: 9001 }]) {
      scope
        .post(`${repoPath}/pulls/${number}/reviews`)
        .reply(
          recording("POST", (body) =>
            typeof reply === "function" ? reply(body as Record<string, unknown>) : reply,
          ),
        );
      return mock;
    },
    reaction(source, commentId) {
      const kind = source === "issue_comment" ? "issues/comments" : "pulls/comments";
      scope
        .post(`${repoPath}/${kind}/${commentId}/reactions`)
        .reply(recording("POST", () => [201, { id: 1, content: "eyes" }]));
      return mock;
    },
    issueComment(number) {
      scope
        .post(`${repoPath}/issues/${number}/comments`)
        .reply(recording("POST", (body) => [201, { id: 5001, ...(body as object) }]));
      return mock;
    },
    permission(login, permission, roleName = permission, status = 200) {
      const answer = { permission, role_name: roleName, user: { login } };
      scope
        .get(`${repoPath}/collaborators/${login}/permission`)
        .reply(
          recording("GET", () => (status === 200 ? [200, answer] : [status, { message: "Server Error" }])),
        );
      return mock;
    },
    addLabel(number) {
      scope
        .post(`${repoPath}/issues/${number}/labels`)
        .reply(
          recording("POST", (body) => [
            200,
            ((body as { labels: string[] }).labels ?? []).map((name) => ({ name })),
          ]),
        );
      return mock;
    },
    removeLabel(number, label, status = 200) {
      scope
        .delete(`${repoPath}/issues/${number}/labels/${encodeURIComponent(label)}`)
        .reply(
          recording("DELETE", () => [status, status === 200 ? [] : { message: "Label does not exist" }]),
        );
      return mock;
    },
    reviewComment(id, data) {
      scope.get(`${repoPath}/pulls/comments/${id}`).reply(recording("GET", () => [200, { id, ...data }]));
      return mock;
    },
    replyInThread(number, rootId) {
      scope
        .post(`${repoPath}/pulls/${number}/comments/${rootId}/replies`)
        .reply(recording("POST", (body) => [201, { id: 7001, ...(body as object) }]));
      return mock;
    },
    graphql(answer, times = 1) {
      scope
        .post("/graphql")
        .times(times)
        .reply(
          recording("POST", (body) => {
            const { query, variables } = body as { query: string; variables: Record<string, unknown> };
            return [200, { data: answer(query, variables ?? {}) }];
          }),
        );
      return mock;
    },
    posted: (suffix) =>
      calls
        .filter((c) => c.method === "POST" && c.path.endsWith(suffix))
        .map((c) => c.body as Record<string, unknown>),
    pending: () => [...scope.pendingMocks(), ...persisted.pendingMocks()],
  };
  return mock;
}
