// GitLab's settings checked at start against the fake GitLab, and the webhook on its own path
// in front of the real in-process queue: each misconfiguration is one line naming its setting,
// and only a delivery with the right X-Gitlab-Token reaches the queue.

import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { checkGitLabAccess } from "../../../../src/forges/gitlab/check-access.ts";
import { gitLabApi } from "../../../../src/forges/gitlab/gitlab-api.ts";
import { GITLAB_FORGE } from "../../../../src/forges/gitlab/gitlab-forge.ts";
import { createGitLabWebhook, tokenMatches } from "../../../../src/forges/gitlab/gitlab-webhook.ts";
import { createReviewQueue } from "../../../../src/jobs/queue.ts";
import type { ReviewJob } from "../../../../src/jobs/review-job.ts";
import { NO_METRICS } from "../../../../src/metrics/metrics.ts";
import { type FakeGitLab, startFakeGitLab } from "../../../support/fake-gitlab.ts";
import { deliverGitLabEvent, mergeRequestEvent } from "../../../support/gitlab-webhooks.ts";

const NO_RETRY = { sleep: async () => {}, now: Date.now, deadline: 0 };
let gitlab: FakeGitLab;
let readOnly: FakeGitLab;
let oauth: FakeGitLab;

beforeAll(async () => {
  gitlab = await startFakeGitLab();
  readOnly = await startFakeGitLab({ scopes: ["read_api", "read_repository"] });
  oauth = await startFakeGitLab({ tokenType: "oauth" });
});

afterAll(async () => {
  await gitlab?.stop();
  await readOnly?.stop();
  await oauth?.stop();
});

describe("GitLab's settings at start", () => {
  it("pass with an api token, and name the setting that is wrong otherwise", async () => {
    const check = (url: string, token: string) =>
      checkGitLabAccess(gitLabApi({ url, token, retry: NO_RETRY }), url);
    expect(await check(gitlab.url, gitlab.token)).toEqual({ kind: "ok", username: "loupe-bot" });
    expect(await check(oauth.url, oauth.token)).toEqual({
      kind: "ok",
      username: "loupe-bot",
      tokenNote: expect.stringMatching(
        /^GITLAB_TOKEN is not a personal, project or group access token \(GitLab answers 400 to GET \/personal_access_tokens\/self\)/,
      ),
    });
    expect(await check(gitlab.url, "glpat-wrong")).toMatchObject({
      kind: "invalid",
      line: expect.stringMatching(/^GITLAB_TOKEN is not accepted by .* \(401\)/),
    });
    expect(await check(readOnly.url, readOnly.token)).toEqual({
      kind: "invalid",
      line: "GITLAB_TOKEN lacks the api scope (it has read_api, read_repository): create a token with the api scope",
    });
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await check(`http://127.0.0.1:${port}`, gitlab.token)).toMatchObject({
      kind: "unreachable",
      line: expect.stringContaining(`GITLAB_URL=http://127.0.0.1:${port} cannot be reached now`),
    });
  });
});

describe("the GitLab forge's check at start", () => {
  it("stops the process with the wrong setting's line, and serves a right one as set, saying whose token", async () => {
    const lines: string[] = [];
    const log = { info: (_: object, line: string) => lines.push(line), warn: () => {}, error: () => {} };
    const configured = {
      ...{ url: gitlab.url, token: gitlab.token, webhookSecret: "a-webhook-secret" },
      ...{ statusName: "Loupe", configProject: null },
    };
    expect(await GITLAB_FORGE.checkAtStart(configured, log)).toEqual({ serve: configured });
    expect(lines).toEqual(["GitLab: the token is @loupe-bot's"]);
    expect(await GITLAB_FORGE.checkAtStart({ ...configured, token: "glpat-wrong" }, log)).toEqual({
      stop: expect.stringMatching(/^GITLAB_TOKEN is not accepted by .* \(401\)/),
    });
  });
});

describe("GitLab's webhook", () => {
  const SECRET = "a-webhook-secret-of-some-length";
  const jobs: ReviewJob[] = [];
  let server: http.Server;
  let url: string;
  let drain: () => Promise<void>;

  beforeAll(async () => {
    const queue = createReviewQueue({
      concurrency: 1,
      runner: async (job) => {
        jobs.push(job);
        return { remember: true };
      },
    });
    const handler = createGitLabWebhook({
      secret: SECRET,
      queue: () => queue,
      metrics: NO_METRICS,
      log: console,
    });
    drain = async () => {
      await handler.idle();
      await queue.drain();
    };
    server = http.createServer((req, res) => {
      void handler.handle(req, res).then((taken) => {
        if (!taken) res.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/gitlab/webhooks`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("compares the token whole, whatever its length", () => {
    expect(tokenMatches(SECRET, SECRET)).toBe(true);
    expect(tokenMatches(SECRET.slice(0, -1), SECRET)).toBe(false);
    expect(tokenMatches(`${SECRET}x`, SECRET)).toBe(false);
    expect(tokenMatches(undefined, SECRET)).toBe(false);
  });

  it("queues an opened merge request once, however often GitLab delivers it", async () => {
    const event = mergeRequestEvent({
      project: "group/app",
      iid: 3,
      headSha: "c".repeat(40),
      action: "open",
    });
    expect(await deliverGitLabEvent(url, "wrong-secret", event)).toBe(401);
    expect(await deliverGitLabEvent(url, SECRET, event, { uuid: "event-1" })).toBe(200);
    expect(await deliverGitLabEvent(url, SECRET, event, { uuid: "event-1" })).toBe(200);
    await drain();
    expect(jobs.map((j) => [j.request.forge, j.request.owner, j.request.repo, j.request.pullNumber])).toEqual(
      [["gitlab", "group", "app", 3]],
    );
  });

  it("answers 400 to a body that is not JSON, and skips other events", async () => {
    const bad = await fetch(url, { method: "POST", headers: { "X-Gitlab-Token": SECRET }, body: "{" });
    expect(bad.status).toBe(400);
    expect(await deliverGitLabEvent(url, SECRET, { object_kind: "push" }, { eventHeader: "Push Hook" })).toBe(
      200,
    );
  });
});
