// `npm start` and the queue dashboard: served at /queues only with REDIS_URL and DASHBOARD_PASSWORD
// (behind Basic authentication), absent otherwise, and a bad password refused at startup. Real
// Loupe processes against a fake GitHub, a real redis-server and a model that never answers, so a
// review delivered by webhook is still running when the dashboard is asked for it. The browser
// test of the page itself is queue-dashboard.test.ts.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { fakeGitHubTarget, pullRequestEvent } from "../../support/fake-github-payloads.ts";
import { createOneChangeRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { parseJsonLines } from "../../support/json-lines.ts";
import {
  fakeWorldEnv,
  type LoupeProcess,
  runLoupeToExit,
  startLoupeProcess,
} from "../../support/loupe-process.ts";
import { type RedisServer, startRedisServer } from "../../support/redis-server.ts";
import { type ScriptedProvider, startScriptedProvider } from "../../support/scripted-provider.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

const PASSWORD = `dash-pw-${process.pid}-0123456789`;
const authorization = `Basic ${Buffer.from(`ops:${PASSWORD}`).toString("base64")}`;
let github: FakeGitHub;
let redis: RedisServer;
let provider: ScriptedProvider;
let fixture: FixtureRepo;
const SECRET = `whsec-dashboard-${process.pid}-${Date.now()}`; // never under 16 characters, whatever the pid
const started: LoupeProcess[] = [];

const env = (extra: Record<string, string>) =>
  fakeWorldEnv({
    github,
    providerBaseURL: provider.baseURL,
    webhookSecret: SECRET,
    apiKey: `test-key-dashboard-${process.pid}`,
    extra,
  });

const start = async (extra: Record<string, string>) => {
  const loupe = await startLoupeProcess({ command: "node", env: env(extra) });
  started.push(loupe);
  return loupe;
};

beforeAll(async () => {
  fixture = createOneChangeRepo();
  github = await startFakeGitHub();
  github.addRepository({ owner: "octo", repo: "dash", source: fixture });
  provider = await startScriptedProvider([{ fault: "hang" }]);
  redis = await startRedisServer();
}, 60_000);

afterAll(async () => {
  for (const loupe of started) await loupe.stop(5000);
  await redis?.stop();
  await provider?.stop();
  await github?.stop();
  fixture?.dispose();
});

describe("the queue dashboard of npm start", () => {
  it("is served at /queues with REDIS_URL and DASHBOARD_PASSWORD, only to the right credentials, and lists a running review", async () => {
    const loupe = await start({ REDIS_URL: redis.url, DASHBOARD_USER: "ops", DASHBOARD_PASSWORD: PASSWORD });
    const anonymous = await fetch(`${loupe.url}/queues`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Basic /);
    const page = await fetch(`${loupe.url}/queues`, { headers: { authorization } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Loupe queue");
    const api = await fetch(`${loupe.url}/queues/api/queues`, { headers: { authorization } });
    expect(api.status).toBe(200);
    const { queues } = (await api.json()) as { queues: Array<{ name: string }> };
    expect(queues.map((queue) => queue.name)).toEqual(["loupe-reviews", "loupe-replies"]);
    // A review the fleet queued from a webhook is there, running (the model never answers).
    const pr = github.addPullRequest({ owner: "octo", repo: "dash", number: 5, headRef: "change" });
    const target = fakeGitHubTarget(github, "dash");
    const delivered = await deliverWebhook({
      url: loupe.webhookUrl,
      event: "pull_request",
      payload: pullRequestEvent("opened", target, pr),
      secret: SECRET,
    });
    expect(delivered.status).toBe(200);
    type Listed = {
      queues: Array<{ jobs: Array<{ data: { request?: { pullNumber?: number; headSha?: string } } }> }>;
    };
    let running: Listed["queues"][number]["jobs"] = [];
    while (running.length === 0) {
      const listed = await fetch(`${loupe.url}/queues/api/queues?activeQueue=loupe-reviews&status=active`, {
        headers: { authorization },
      });
      running = ((await listed.json()) as Listed).queues[0]!.jobs;
      if (running.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(running.map((job) => job.data.request?.pullNumber)).toEqual([5]);
    expect(running[0]!.data.request?.headSha).toBe(pr.headSha);
    // The App's own routes are untouched.
    expect((await fetch(`${loupe.url}/healthz`)).status).toBe(200);
    expect(loupe.output()).toContain("queue dashboard");
    expect(loupe.output()).not.toContain(PASSWORD);
    // Every request above sent the Basic credentials; the access log has a line for each, not them.
    expect(loupe.output()).toContain("GET /queues/api/queues");
    expect(loupe.output()).not.toContain(authorization.slice("Basic ".length));
  });

  it("is absent without DASHBOARD_PASSWORD, and without REDIS_URL (said in the log)", async () => {
    const noPassword = await start({ REDIS_URL: redis.url });
    expect((await fetch(`${noPassword.url}/queues`, { headers: { authorization } })).status).toBe(404);
    const single = await start({ DASHBOARD_PASSWORD: PASSWORD });
    expect((await fetch(`${single.url}/queues`, { headers: { authorization } })).status).toBe(404);
    expect(single.output()).toContain("DASHBOARD_PASSWORD is set but REDIS_URL is not");
  });

  it("refuses to start with a short password, naming the variable", async () => {
    const result = await runLoupeToExit({
      command: "node",
      env: env({ REDIS_URL: redis.url, DASHBOARD_PASSWORD: "too-short" }),
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain("loupe: DASHBOARD_PASSWORD must be 16 to 200 printable characters");
  });

  it("reports a Redis outage through Redis's state: a few JSON lines, /readyz naming Redis, then up", async () => {
    const away = await startRedisServer();
    await away.halt();
    try {
      const loupe = await start({
        ...{ REDIS_URL: away.url, DASHBOARD_USER: "ops", DASHBOARD_PASSWORD: PASSWORD },
        ...{ LOG_FORMAT: "json", LOG_STILL_DOWN_SECONDS: "1" },
      });
      const stillDown = () => {
        const lines = parseJsonLines(loupe.output()).filter((l) => l.event === "dependency_still_down");
        return lines.length >= 3 ? lines : undefined;
      };
      await loupe.until(stillDown, "three still-down lines");
      const ready = await fetch(`${loupe.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.text()).toContain("Redis (REDIS_URL) is unreachable");
      const output = loupe.output();
      const lines = parseJsonLines(output); // throws on a line that is not JSON (a raw stack)
      // Seconds of outage with the dashboard's connection reconnecting too: it was 324 lines in
      // 10 s, 304 of them ECONNREFUSED stacks.
      expect(lines.length).toBeLessThan(30);
      expect(lines.filter((l) => l.event === "dependency_down")).toHaveLength(1);
      expect(output).not.toMatch(/queue dashboard: redis connection/);
      expect(output).not.toMatch(/\n\s+at /);
      await away.start();
      await loupe.until(
        () => parseJsonLines(loupe.output()).find((l) => l.event === "dependency_up"),
        "an up line",
      );
      while ((await fetch(`${loupe.url}/readyz`)).status !== 200)
        await new Promise((r) => setTimeout(r, 100));
    } finally {
      await away.stop();
    }
  }, 90_000);
});
