// A review GitHub keeps from running, from a real server process. Octokit's retries are info lines
// with their attempt counts, GitHub's state is logged down, the review ends `github_unavailable`
// in its log line and in the metrics, and the job fails visibly. One process whose GitHub drops
// every connection for the pull request and its check runs (a proxy in front of the fake GitHub):
// no check run can exist, so the review's conclusion is "none" and its queue logs the job as failed. A fleet replica whose GitHub answers 502 to
// pull-request reads (a proxy in front of the fake): the queued check run is completed, and the
// BullMQ job is failed, which is what the queue's dashboard shows. A GitHub where nothing listens
// (connection refused): the review ends within REVIEW_TIMEOUT_MS, its retries with it.

import { afterAll, describe, expect, it } from "@jest/globals";
import { Queue } from "bullmq";
import { startFailingProxy } from "../../support/failing-proxy.ts";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import {
  fakeGitHubTarget,
  type PullRequestFacts,
  pullRequestEvent,
} from "../../support/fake-github-payloads.ts";
import { createOneChangeRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { parseJsonLines } from "../../support/json-lines.ts";
import { fakeWorldEnv, freePort, type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import { type RedisServer, startRedisServer } from "../../support/redis-server.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

const SECRET = `whsec-gh-away-${process.pid}-${Date.now()}`; // never under 16 characters, whatever the pid
const stops: Array<() => Promise<void>> = [];

afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

async function loupeWith(
  github: { appId: string; privateKey: string; host: string },
  extra: Record<string, string>,
) {
  const loupe = await startLoupeProcess({
    command: "node",
    env: fakeWorldEnv({
      github,
      providerBaseURL: "http://127.0.0.1:9/v1",
      webhookSecret: SECRET,
      apiKey: `test-key-gh-away-${process.pid}`,
      extra: { LOG_FORMAT: "json", LOG_STILL_DOWN_SECONDS: "5", ...extra },
    }),
  });
  stops.push(() => loupe.stop(2000));
  return loupe;
}

async function deliverPullRequest(
  loupe: LoupeProcess,
  github: FakeGitHub,
  pr: PullRequestFacts,
): Promise<void> {
  const target = fakeGitHubTarget(github, "away");
  const payload = pullRequestEvent("opened", target, pr);
  const delivered = await deliverWebhook({
    url: loupe.webhookUrl,
    event: "pull_request",
    payload,
    secret: SECRET,
  });
  expect(delivered.status).toBe(200);
}

/** The review's end as the log and /metrics tell it, once it has ended. */
async function reviewEnd(loupe: LoupeProcess) {
  const ended = await loupe.until(
    () => parseJsonLines(loupe.output()).find((line) => line.event === "review_ended"),
    "the review's end",
  );
  const lines = parseJsonLines(loupe.output());
  const metrics = await (await fetch(`${loupe.url}/metrics`)).text();
  return { ended, lines, metrics };
}

function expectRetriedAndDown(lines: Record<string, unknown>[], kind: string): void {
  const retries = lines.filter((line) => line.event === "github_retry");
  expect(retries.length).toBeGreaterThan(0);
  expect(retries[0]).toMatchObject({ level: 30, kind, attempt: 1, attempts: 4 });
  expect(lines.find((line) => line.event === "dependency_down")).toMatchObject({
    dependency: "github",
    kind,
  });
}

/** A fake GitHub with the pull request, behind a proxy that fails its pull-request reads (and check runs). */
async function partlyAwayGitHub(how: "bad_gateway" | "drop", checkRunsToo: boolean) {
  const fixture: FixtureRepo = createOneChangeRepo();
  stops.push(async () => fixture.dispose());
  const github = await startFakeGitHub();
  stops.push(() => github.stop());
  github.addRepository({ owner: "octo", repo: "away", source: fixture });
  const pr = github.addPullRequest({ owner: "octo", repo: "away", number: 9, headRef: "change" });
  const proxy = await startFailingProxy(
    github.host,
    (method, path) =>
      (method === "GET" && path.includes("/pulls/")) || (checkRunsToo && path.includes("/check-runs")),
    how,
  );
  stops.push(() => proxy.stop());
  return { github, pr, behindProxy: { ...github, host: proxy.host } };
}

describe("a review while GitHub is unreachable", () => {
  it("in one process: retries at info, ends github_unavailable with no conclusion, the job logged as failed", async () => {
    const { github, pr, behindProxy } = await partlyAwayGitHub("drop", true);
    const loupe = await loupeWith(behindProxy, {});
    await deliverPullRequest(loupe, github, pr);
    const { ended, lines, metrics } = await reviewEnd(loupe);
    // Neither the pull request nor a check run could be had: no check run ever existed.
    expect(ended).toMatchObject({ termination_reason: "github_unavailable", conclusion: "none" });
    expect(github.checkRuns).toEqual([]);
    expectRetriedAndDown(lines, "connection_reset");
    expect(metrics).toContain(
      'loupe_reviews_total{termination_reason="github_unavailable",conclusion="none"} 1',
    );
    expect(metrics).toMatch(
      /^loupe_dependency_errors_total\{dependency="github",kind="connection_reset"\} [1-9]/m,
    );
    const failed = await loupe.until(
      () => parseJsonLines(loupe.output()).find((line) => line.msg === "review job failed"),
      "the failed job's line",
    );
    expect(failed).toMatchObject({ level: 50 });
    expect(String(failed.error)).toContain("GitHubUnavailableError");
  }, 120_000);

  it("in the fleet: the check run completes, the BullMQ job fails (the dashboard shows it failed)", async () => {
    const { github, pr, behindProxy } = await partlyAwayGitHub("bad_gateway", false);
    const redis: RedisServer = await startRedisServer();
    stops.push(() => redis.stop());
    const loupe = await loupeWith(behindProxy, { REDIS_URL: redis.url });
    await deliverPullRequest(loupe, github, pr);
    const { ended, lines, metrics } = await reviewEnd(loupe);
    expect(ended).toMatchObject({ termination_reason: "github_unavailable", conclusion: "neutral" });
    expectRetriedAndDown(lines, "server_error");
    expect(metrics).toContain(
      'loupe_reviews_total{termination_reason="github_unavailable",conclusion="neutral"} 1',
    );
    expect(github.checkRuns.map((run) => run.history.at(-1)?.conclusion)).toEqual(["neutral"]);
    const queue = new Queue("loupe-reviews", { connection: { host: "127.0.0.1", port: redis.port } });
    try {
      let counts = await queue.getJobCounts("failed", "completed");
      while (counts.failed! + counts.completed! === 0) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        counts = await queue.getJobCounts("failed", "completed");
      }
      expect(counts).toEqual({ failed: 1, completed: 0 });
    } finally {
      await queue.close();
    }
  }, 120_000);

  it("with nothing listening at GitHub's address: github_unavailable within REVIEW_TIMEOUT_MS and a few seconds", async () => {
    const { github, pr } = await partlyAwayGitHub("drop", false);
    const closed = await freePort(); // nothing listens there: every connection is refused
    const timeoutMs = 20_000;
    const loupe = await loupeWith(
      { ...github, host: `127.0.0.1:${closed}` },
      { REVIEW_TIMEOUT_MS: String(timeoutMs) },
    );
    const delivered = Date.now();
    await deliverPullRequest(loupe, github, pr);
    const { ended, lines } = await reviewEnd(loupe);
    const took = Date.now() - delivered;
    expect(ended).toMatchObject({ termination_reason: "github_unavailable" });
    expectRetriedAndDown(lines, "connection_refused");
    // Every retry and its wait stays inside the review's deadline (it was three series of
    // token retries, 70 s); after it, each request gets one attempt.
    expect(took).toBeLessThan(timeoutMs + 8_000);
    for (const retry of lines.filter((line) => line.event === "github_retry")) {
      const wait = Number(/retrying in (\d+) s/.exec(String(retry.msg))![1]) * 1000;
      expect(Number(retry.time) + wait).toBeLessThanOrEqual(delivered + timeoutMs + 1000);
    }
  }, 120_000);
});
