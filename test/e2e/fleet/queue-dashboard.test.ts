// The queue dashboard in a real browser: a real redis-server holding the fleet's BullMQ queue with
// a failed job and waiting ones, the dashboard mounted on Probot's own HTTP server as `npm start`
// mounts it, and Debian's headless Chromium. Without the password the browser gets 401 and no
// dashboard; with it the page renders the queue and its jobs; nothing can be changed through it.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type Job, Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { pino } from "pino";
import type { Browser } from "playwright-core";
import { Probot, Server } from "probot";
import { DASHBOARD_PATH } from "../../../src/dashboard/queue-dashboard.ts";
import { openRedisDashboard, type RedisDashboard } from "../../../src/dashboard/redis-dashboard.ts";
import { REVIEW_QUEUE_NAME } from "../../../src/fleet/fleet-timing.ts";
import { createDependencyState } from "../../../src/metrics/dependency-state.ts";
import { launchChromium, loopbackContext } from "../../support/chromium.ts";
import { freePort } from "../../support/loupe-process.ts";
import { testPrivateKey } from "../../support/probot-harness.ts";
import { type RedisServer, startRedisServer } from "../../support/redis-server.ts";

const CREDENTIALS = { user: "operator", password: `dashboard-pw-${process.pid}-0123456789` };
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

let redis: RedisServer;
let connection: Redis;
let queue: Queue;
let dashboard: RedisDashboard;
let server: Server;
let base: string;
let browser: Browser;
const screenshots = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-dashboard-"));

const request = (owner: string, repo: string, number: number, headSha: string) => ({
  request: { installationId: 42, owner, repo, pullNumber: number, headSha },
  checkRun: null,
});

beforeAll(async () => {
  redis = await startRedisServer();
  connection = new Redis(redis.url, { maxRetriesPerRequest: null });
  queue = new Queue(REVIEW_QUEUE_NAME, { connection });
  // One job that failed (as a review whose provider kept failing would), then two waiting ones.
  const workerConnection = new Redis(redis.url, { maxRetriesPerRequest: null });
  const worker = new Worker(
    REVIEW_QUEUE_NAME,
    async () => {
      throw new Error("the provider answered 503 three times");
    },
    { connection: workerConnection },
  );
  const failed = new Promise<Job | undefined>((resolve) => worker.once("failed", resolve));
  await queue.add("octo/fleet#1", request("octo", "fleet", 1, "a".repeat(40)));
  await failed;
  await worker.close();
  workerConnection.disconnect();
  await queue.add("octo/fleet#2", request("octo", "fleet", 2, "b".repeat(40)));
  await queue.add("acme/widgets#7", request("acme", "widgets", 7, "c".repeat(40)));

  const redisHealth = createDependencyState({
    dependency: "redis",
    log: pino({ level: "silent" }),
    metrics: { dependencyError: () => {} },
    stillDownEveryMs: 60_000,
  });
  dashboard = openRedisDashboard({ redisUrl: redis.url, credentials: CREDENTIALS, redisHealth });
  const port = await freePort();
  server = new Server({
    Probot: Probot.defaults({ appId: 1, privateKey: testPrivateKey(), secret: "dashboard-test" }),
    host: "127.0.0.1",
    port,
    log: pino({ level: "silent" }),
  });
  await server.load((_app, options) => options.addHandler(dashboard.handler));
  await server.start();
  base = `http://127.0.0.1:${port}`;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await dashboard?.close();
  await queue?.close();
  connection?.disconnect();
  await redis?.stop();
  fs.rmSync(screenshots, { recursive: true, force: true });
});

describe(`the queue dashboard at ${DASHBOARD_PATH}`, () => {
  it("answers a browser without credentials 401 with a Basic challenge, and shows no dashboard", async () => {
    for (const httpCredentials of [
      undefined,
      { username: CREDENTIALS.user, password: "not-the-password-at-all" },
    ]) {
      const { context, blocked } = await loopbackContext(browser, httpCredentials ? { httpCredentials } : {});
      const page = await context.newPage();
      const requested: string[] = [];
      page.on("request", (sent) => requested.push(new URL(sent.url()).pathname));
      const answered = page.waitForResponse(
        (response) => new URL(response.url()).pathname === DASHBOARD_PATH,
      );
      // Chromium gives up on a challenge it cannot answer (net::ERR_INVALID_AUTH_CREDENTIALS).
      const navigation = await page.goto(`${base}${DASHBOARD_PATH}`).catch((error: Error) => error);
      const response = await answered;
      expect(response.status()).toBe(401);
      expect(response.headers()["www-authenticate"]).toMatch(/^Basic realm="loupe-dashboard"/);
      if (navigation instanceof Error) expect(navigation.message).toContain("ERR_INVALID_AUTH_CREDENTIALS");
      expect(await page.locator("body").textContent()).not.toContain(REVIEW_QUEUE_NAME);
      // The dashboard's scripts and API were never loaded.
      expect(requested.every((pathname) => pathname === DASHBOARD_PATH)).toBe(true);
      expect(blocked).toEqual([]);
      await context.close();
    }
  });

  it("refuses a wrong password, a wrong user and a bearer token on the page and its API", async () => {
    for (const authorization of [
      basic(CREDENTIALS.user, `${CREDENTIALS.password}x`),
      basic("admin", CREDENTIALS.password),
      `Bearer ${CREDENTIALS.password}`,
      "Basic !!!",
    ]) {
      for (const route of [
        DASHBOARD_PATH,
        `${DASHBOARD_PATH}/api/queues`,
        `${DASHBOARD_PATH}/static/favicon-32x32.png`,
      ]) {
        const answer = await fetch(`${base}${route}`, { headers: { authorization } });
        expect({ route, authorization, status: answer.status }).toEqual({
          route,
          authorization,
          status: 401,
        });
        expect(await answer.text()).not.toContain(REVIEW_QUEUE_NAME);
      }
    }
  });

  it("renders the queue and its jobs for the operator, with nothing fetched off the machine but the web font", async () => {
    const { context, blocked } = await loopbackContext(browser, {
      httpCredentials: { username: CREDENTIALS.user, password: CREDENTIALS.password },
    });
    const page = await context.newPage();
    const overview = await page.goto(`${base}${DASHBOARD_PATH}`);
    expect(overview?.status()).toBe(200);
    await expect(
      page.getByText(REVIEW_QUEUE_NAME).first().waitFor({ timeout: 20_000 }),
    ).resolves.toBeUndefined();
    await page.screenshot({ path: path.join(screenshots, "overview.png"), fullPage: true });

    await page.goto(`${base}${DASHBOARD_PATH}/queue/${REVIEW_QUEUE_NAME}?status=waiting`);
    await page.getByText("acme/widgets#7").first().waitFor({ timeout: 20_000 });
    await page.getByText("octo/fleet#2").first().waitFor({ timeout: 20_000 });
    expect(await page.getByText("octo/fleet#1").count()).toBe(0); // it failed: not waiting
    await page.screenshot({ path: path.join(screenshots, "waiting.png"), fullPage: true });

    await page.goto(`${base}${DASHBOARD_PATH}/queue/${REVIEW_QUEUE_NAME}?status=failed`);
    await page.getByText("octo/fleet#1").first().waitFor({ timeout: 20_000 });
    await page.getByText("the provider answered 503 three times").first().waitFor({ timeout: 20_000 });
    await page.screenshot({ path: path.join(screenshots, "failed.png"), fullPage: true });
    for (const name of ["overview.png", "waiting.png", "failed.png"]) {
      expect(fs.statSync(path.join(screenshots, name)).size).toBeGreaterThan(10_000);
    }
    if (process.env.DASHBOARD_SCREENSHOTS)
      fs.cpSync(screenshots, process.env.DASHBOARD_SCREENSHOTS, { recursive: true });
    // The page's only request off the machine is bull-board's web font stylesheet (aborted here).
    expect(blocked.every((url) => new URL(url).hostname === "fonts.googleapis.com")).toBe(true);
    await context.close();
  });

  it("is read-only: the API refuses to pause the queue or retry a job, and nothing changes", async () => {
    const authorization = basic(CREDENTIALS.user, CREDENTIALS.password);
    const pause = await fetch(`${base}${DASHBOARD_PATH}/api/queues/${REVIEW_QUEUE_NAME}/pause`, {
      method: "PUT",
      headers: { authorization },
    });
    expect(pause.status).toBe(405);
    const retry = await fetch(`${base}${DASHBOARD_PATH}/api/queues/${REVIEW_QUEUE_NAME}/retry/failed`, {
      method: "PUT",
      headers: { authorization },
    });
    expect(retry.status).toBe(405);
    expect(await queue.isPaused()).toBe(false);
    expect(await queue.getJobCounts("waiting", "failed")).toEqual({ waiting: 2, failed: 1 });
  });

  it("leaves every other path to the rest of the server", async () => {
    const authorization = basic(CREDENTIALS.user, CREDENTIALS.password);
    expect((await fetch(`${base}/queuesx`)).status).toBe(404);
    expect((await fetch(`${base}/ping`)).status).toBe(200); // Probot's own handler still answers
    expect(
      (await fetch(`${base}${DASHBOARD_PATH}/no-such-page`, { headers: { authorization } })).status,
    ).toBe(404);
  });
});
