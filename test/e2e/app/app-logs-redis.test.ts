// What an operator reads when the fleet's Redis is away, from a real server process in JSON log
// mode: its REDIS_URL points at a redis-server that is stopped, then started. Every line the
// process writes (stdout and stderr) is one JSON object with each key once; Redis's state is a
// "down" line, "still down" lines with counts (LOG_STILL_DOWN_SECONDS=1), and an "up" line — not
// a line per connection attempt. A webhook that fails meanwhile (503) is logged without its
// payload. /metrics counts the errors by kind, says which build runs, and reads delayed jobs.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Queue } from "bullmq";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { fakeGitHubTarget, pullRequestEvent } from "../../support/fake-github-payloads.ts";
import { duplicateKeys, parseJsonLines } from "../../support/json-lines.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import { type RedisServer, startRedisServer } from "../../support/redis-server.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

const SECRET = `whsec-logs-redis-${process.pid}-${Date.now()}`; // never under 16 characters, whatever the pid
const BODY_MARK = "PRIVATE-PLAN-";
let redis: RedisServer;
let github: FakeGitHub;
let loupe: LoupeProcess;

const events = (name: string) => () => {
  const lines = parseJsonLines(loupe.output()).filter((line) => line.event === name);
  return lines.length > 0 ? lines : undefined;
};

beforeAll(async () => {
  redis = await startRedisServer();
  await redis.halt();
  github = await startFakeGitHub();
  loupe = await startLoupeProcess({
    command: "node",
    env: fakeWorldEnv({
      github,
      providerBaseURL: "http://127.0.0.1:9/v1",
      webhookSecret: SECRET,
      apiKey: `test-key-logs-${process.pid}`,
      extra: { LOG_FORMAT: "json", REDIS_URL: redis.url, LOG_STILL_DOWN_SECONDS: "1" },
    }),
  });
}, 60_000);

afterAll(async () => {
  await loupe?.stop(2000);
  await github?.stop();
  await redis?.stop();
});

describe("a replica whose Redis is away, then back", () => {
  it("logs down, still down and up in JSON lines, and a failed delivery without its payload", async () => {
    const target = fakeGitHubTarget(github, "logs");
    const payload = pullRequestEvent("opened", target, {
      ...{ number: 3, headSha: "a".repeat(40), headRef: "change", baseRef: "main", baseSha: "b".repeat(40) },
      ...{ title: `${BODY_MARK} title`, body: BODY_MARK.repeat(3_000) },
    });
    const delivered = await deliverWebhook({
      url: loupe.webhookUrl,
      event: "pull_request",
      payload,
      secret: SECRET,
    });
    expect(delivered.status).toBe(503);
    await loupe.until(events("dependency_still_down"), "a still-down line");
    const linesWhileDown = parseJsonLines(loupe.output()).length;
    await redis.start();
    await loupe.until(events("dependency_up"), "an up line");

    const output = loupe.output();
    const lines = parseJsonLines(output); // throws on the first line that is not JSON
    for (const raw of output.split("\n").filter((line) => line !== ""))
      expect(duplicateKeys(raw)).toEqual([]);
    const redisLines = lines.filter((line) => line.dependency === "redis").map((line) => line.event);
    expect(redisLines[0]).toBe("dependency_down");
    expect(redisLines.filter((event) => event === "dependency_down")).toHaveLength(1);
    expect(redisLines.at(-1)).toBe("dependency_up");
    const stillDown = lines.filter((line) => line.event === "dependency_still_down");
    expect(stillDown.length).toBeGreaterThan(0);
    expect(stillDown[0]).toMatchObject({ dependency: "redis", kind: "connection_refused" });
    expect(stillDown[0]!.errors).toEqual(expect.any(Number));
    // Seconds of Redis away, a failed delivery: a few dozen lines at most, not dozens a second.
    expect(linesWhileDown).toBeLessThan(40);
    expect(output).not.toContain(BODY_MARK);
    for (const raw of output.split("\n")) expect(raw.length).toBeLessThan(8_000);
    const failed = lines.find((line) => (line.err as { event?: unknown } | undefined)?.event !== undefined);
    expect(failed).toMatchObject({
      level: 50,
      err: { event: { id: delivered.deliveryId, name: "pull_request" } },
    });
    expect(lines.find((line) => line.event === "fleet_started")).toMatchObject({
      redis: { host: `127.0.0.1:${redis.port}`, db: 0 },
      queues: ["loupe-reviews", "loupe-replies"],
      lock_ms: 30_000,
    });
  }, 60_000);

  it("exposes dependency errors by kind, the build, and the shared queue's delayed jobs", async () => {
    const gauge = async () => {
      const text = await (await fetch(`${loupe.url}/metrics`)).text();
      return Number(/^loupe_queue_jobs\{state="delayed"\} (\d+)$/m.exec(text)?.[1]);
    };
    const queue = new Queue("loupe-reviews", { connection: { host: "127.0.0.1", port: redis.port } });
    try {
      const hour = 3_600_000;
      await queue.add("review", {}, { delay: hour, jobId: "delayed-1" });
      await queue.add("review", {}, { delay: hour, jobId: "delayed-2" });
      // The failed delivery's own job may still come and go (its enqueue went on once Redis was
      // back): the gauge must agree with Redis at a moment Redis holds still.
      for (;;) {
        const [before, read, after] = [
          await queue.getDelayedCount(),
          await gauge(),
          await queue.getDelayedCount(),
        ];
        if (before === after && read === before) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await queue.getDelayedCount()).toBeGreaterThanOrEqual(2);
    } finally {
      await queue.close();
    }
    const metrics = await (await fetch(`${loupe.url}/metrics`)).text();
    expect(metrics).toMatch(
      /^loupe_dependency_errors_total\{dependency="redis",kind="connection_refused"\} [1-9]/m,
    );
    expect(metrics).toMatch(/^loupe_build_info\{version="\d+\.\d+\.\d+[^"]*",node="\d+\.\d+\.\d+"\} 1$/m);
    expect(metrics).not.toContain("octo/logs");
  });
});
