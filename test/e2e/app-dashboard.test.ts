// `npm start` and the queue dashboard: served at /queues only with REDIS_URL and DASHBOARD_PASSWORD
// (behind Basic authentication), absent otherwise, and a bad password refused at startup. Real
// Loupe processes against a fake GitHub and a real redis-server; the browser test of the page
// itself is queue-dashboard.test.ts.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type FakeGitHub, startFakeGitHub } from "../support/fake-github.ts";
import {
  fakeWorldEnv,
  type LoupeProcess,
  runLoupeToExit,
  startLoupeProcess,
} from "../support/loupe-process.ts";
import { type RedisServer, startRedisServer } from "../support/redis-server.ts";

const PASSWORD = `dash-pw-${process.pid}-0123456789`;
const authorization = `Basic ${Buffer.from(`ops:${PASSWORD}`).toString("base64")}`;
let github: FakeGitHub;
let redis: RedisServer;
const started: LoupeProcess[] = [];

const env = (extra: Record<string, string>) =>
  fakeWorldEnv({
    github,
    providerBaseURL: "http://127.0.0.1:9/v1", // never called: no review runs here
    webhookSecret: `whsec-dashboard-${process.pid}`,
    apiKey: `test-key-dashboard-${process.pid}`,
    extra,
  });

const start = async (extra: Record<string, string>) => {
  const loupe = await startLoupeProcess({ command: "node", env: env(extra) });
  started.push(loupe);
  return loupe;
};

beforeAll(async () => {
  github = await startFakeGitHub();
  redis = await startRedisServer();
});

afterAll(async () => {
  for (const loupe of started) await loupe.stop(5000);
  await redis?.stop();
  await github?.stop();
});

describe("the queue dashboard of npm start", () => {
  it("is served at /queues with REDIS_URL and DASHBOARD_PASSWORD, only to the right credentials", async () => {
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
    expect(queues.map((queue) => queue.name)).toEqual(["loupe-reviews"]);
    // The App's own routes are untouched.
    expect((await fetch(`${loupe.url}/healthz`)).status).toBe(200);
    expect(loupe.output()).toContain("queue dashboard");
    expect(loupe.output()).not.toContain(PASSWORD);
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
});
