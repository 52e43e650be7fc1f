// SIGTERM ends the App's process by its grace period plus a margin, whatever is stuck: here a
// review waits on a GitHub that accepts the connection and never answers (its abort signal never
// reaches that request). The log says when the shutdown starts, what it cancels, what it leaves
// behind, and when it ends. A real server process; the margin is a fraction of the grace period.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { pullRequestEvent } from "../../support/fake-github-payloads.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import { type SilentGitHub, startSilentGitHub } from "../../support/silent-github.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

const SECRET = `whsec-shutdown-${process.pid}-${Date.now()}`; // never under 16 characters, whatever the pid
const GRACE_SECONDS = 8;
let github: SilentGitHub;
let loupe: LoupeProcess;

beforeAll(async () => {
  github = await startSilentGitHub();
  loupe = await startLoupeProcess({
    command: "node",
    env: fakeWorldEnv({
      github,
      providerBaseURL: "http://127.0.0.1:9/v1", // never reached: the review is stuck before it
      webhookSecret: SECRET,
      apiKey: `test-key-shutdown-${process.pid}`,
      extra: { SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS) },
    }),
  });
}, 60_000);

afterAll(async () => {
  await loupe?.stop(1000);
  await github?.stop();
});

const target = () => ({
  htmlBase: `http://${github.host}`,
  owner: "octo",
  repo: "stuck",
  defaultBranch: "main",
  installationId: 1,
});

const facts = {
  number: 3,
  headSha: "a".repeat(40),
  headRef: "change",
  baseRef: "main",
  baseSha: "b".repeat(40),
  title: "A change",
  body: null,
};

/** The `msg` of every JSON log line the process wrote, in the order of their times (a warning
 * can reach stdout after an info line logged after it). */
const messages = (output: string): string[] =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { msg?: string; time: number })
    .sort((a, b) => a.time - b.time)
    .map((line) => line.msg ?? "");

describe("SIGTERM with a review stuck on a GitHub that never answers", () => {
  it("exits by the grace period plus a margin, and logs the shutdown from start to end", async () => {
    const delivery = await deliverWebhook({
      url: loupe.webhookUrl,
      event: "pull_request",
      payload: pullRequestEvent("opened", target(), facts),
      secret: SECRET,
    });
    expect(delivery.status).toBe(200);
    await loupe.until(() => (github.connections() > 0 ? true : undefined), "the review's first GitHub call");

    const sent = performance.now();
    process.kill(loupe.pid, "SIGTERM");
    const exit = await loupe.exited;
    const graceMs = GRACE_SECONDS * 1000;
    const tookMs = performance.now() - sent;

    const seen = { code: exit.code, tookGraces: Math.round((tookMs / graceMs) * 100) / 100 };
    // The review had its grace period, and the process ended well before a second one.
    expect({ ...seen, output: seen.code === 0 && seen.tookGraces < 2 ? "" : loupe.output() }).toEqual({
      code: 0,
      tookGraces: expect.any(Number),
      output: "",
    });
    expect(seen.tookGraces).toBeGreaterThanOrEqual(0.95);
    expect(seen.tookGraces).toBeLessThan(2);
    const steps = [
      "shutdown started",
      "cancelling running jobs",
      "jobs did not stop; the queue closes without them",
      "shutdown ended",
    ];
    expect(messages(loupe.output()).filter((msg) => steps.includes(msg))).toEqual(steps);
  }, 60_000);
});
