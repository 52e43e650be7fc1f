// Loupe as a fleet: real server processes sharing one real redis-server (REDIS_URL), against the
// fake GitHub and the realistic model answering slowly, so reviews are running while the tests
// push, redeliver, kill, stop and restart things. The rules of one process must hold across them.

import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { type PullRequestFacts, pullRequestEvent } from "../../support/fake-github-payloads.ts";
import { createOneChangeRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import { startRealisticModel } from "../../support/realistic-model.ts";
import { type RedisServer, startRedisServer } from "../../support/redis-server.ts";
import type { ScriptedProvider } from "../../support/scripted-provider.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

const SECRET = `whsec-fleet-${process.pid}-${Date.now()}`; // never under 16 characters, whatever the pid
const TURN_MS = 1500;
let redis: RedisServer;
let github: FakeGitHub;
let provider: ScriptedProvider;
let fixture: FixtureRepo;
const replicas: LoupeProcess[] = [];
const target = (installationId = 1) => ({
  htmlBase: github.url,
  owner: "octo",
  repo: "fleet",
  defaultBranch: "main",
  installationId,
});

async function startReplica(extra: Record<string, string> = {}): Promise<LoupeProcess> {
  const loupe = await startLoupeProcess({
    command: "node",
    env: fakeWorldEnv({
      github,
      providerBaseURL: provider.baseURL,
      webhookSecret: SECRET,
      apiKey: `test-key-fleet-${process.pid}`,
      extra: {
        REDIS_URL: redis.url,
        // A lock below the production floor of 5 s: every takeover waits for it to expire.
        FLEET_LOCK_MS: "2500",
        REVIEW_CONCURRENCY: "2",
        // No grace: a SIGTERMed replica hands its running reviews back at once (the test waits for that).
        SHUTDOWN_GRACE_SECONDS: "0",
        ...extra,
      },
    }),
  });
  replicas.push(loupe);
  return loupe;
}

/** Polls the fake's state; bounded only by the test's own timeout (no duration is asserted). */
async function until<T>(probe: () => T | undefined | false | Promise<T | undefined | false>): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const PULLS = 9;
let nextPull = 1;
/** The next pull request, on its own branch (`change-N`, one changed line). */
function newPull(): PullRequestFacts {
  const number = nextPull++;
  if (number > PULLS) throw new Error("add branches in beforeAll");
  return github.addPullRequest({ owner: "octo", repo: "fleet", number, headRef: `change-${number}` });
}

/** A push to the pull request: its head moves to `change-N-pushed` (a new SHA). */
function push(pr: PullRequestFacts): PullRequestFacts {
  return github.addPullRequest({
    owner: "octo",
    repo: "fleet",
    number: pr.number,
    headRef: `${pr.headRef}-pushed`,
  });
}

const deliver = (loupe: LoupeProcess, action: string, pr: PullRequestFacts, deliveryId?: string) =>
  deliverWebhook({
    url: loupe.webhookUrl,
    event: "pull_request",
    payload: pullRequestEvent(action, target(), pr),
    secret: SECRET,
    ...(deliveryId === undefined ? {} : { deliveryId }),
  });

const runsOn = (sha: string) => github.checkRuns.filter((r) => r.headSha === sha);
const last = (run: {
  history: { status: string; conclusion: string | null; output: { title?: string } | null }[];
}) => run.history.at(-1)!;
const reviewsOn = (sha: string) => github.reviews.filter((r) => r.commitId === sha);
const key = (pr: PullRequestFacts) => `"key":"octo/fleet#${pr.number}"`;
/** The replica whose worker started the job for this pull request (latest start wins). */
async function runnerOf(pr: PullRequestFacts): Promise<LoupeProcess> {
  return until(() =>
    replicas.find(
      (loupe) =>
        loupe.alive() &&
        loupe
          .output()
          .split("\n")
          .some((line) => line.includes("fleet job started") && line.includes(key(pr))),
    ),
  );
}
const inProgress = (sha: string) => runsOn(sha).find((r) => last(r).status === "in_progress");
const completed = (sha: string) => runsOn(sha).find((r) => last(r).status === "completed");
/** A replica still running (earlier tests kill and stop some). */
const live = () => replicas.find((r) => r.alive())!;
const other = (loupe: LoupeProcess) => replicas.find((r) => r !== loupe && r.alive())!;

beforeAll(async () => {
  redis = await startRedisServer();
  // Each pull request's branch, and the same branch pushed again.
  fixture = createOneChangeRepo(
    Array.from({ length: PULLS }, (_, i) => i + 1).flatMap((n) => [
      { branch: `change-${n}`, a: n + 1 },
      { branch: `change-${n}-pushed`, from: `change-${n}`, a: n + 100 },
    ]),
  );
  github = await startFakeGitHub();
  github.addRepository({ owner: "octo", repo: "fleet", source: fixture });
  // It reads each diff before it answers, and finds nothing to report: any review may take any turn.
  provider = await startRealisticModel({ findings: [], answerDelayMs: TURN_MS });
  await Promise.all([startReplica(), startReplica()]);
}, 120_000);

afterAll(async () => {
  for (const loupe of replicas) await loupe.stop(5000);
  await provider?.stop();
  await github?.stop();
  await redis?.stop();
  fixture?.dispose();
});

describe("a fleet of Loupe replicas on one Redis", () => {
  it("reviews a pull request once, and a redelivery to another replica changes nothing", async () => {
    const [a, b] = replicas as [LoupeProcess, LoupeProcess];
    const pr = newPull();
    const deliveryId = crypto.randomUUID();
    expect((await deliver(a, "opened", pr, deliveryId)).status).toBe(200);
    expect((await deliver(b, "opened", pr, deliveryId)).status).toBe(200);
    const run = await until(() => runsOn(pr.headSha).find((r) => last(r).status === "completed"));
    expect(last(run).conclusion).toBe("success");
    // The same head again (a reopen, another delivery): already reviewed, on either replica.
    expect((await deliver(b, "reopened", pr)).status).toBe(200);
    await until(() => b.output().includes("already_reviewed") || undefined);
    expect(runsOn(pr.headSha)).toHaveLength(1);
    expect(reviewsOn(pr.headSha)).toHaveLength(1);
    expect(`${a.output()}${b.output()}`).toContain("duplicate_delivery");
  });

  it("supersedes a review running on one replica with a push delivered to another", async () => {
    const pr = newPull();
    expect((await deliver(live(), "opened", pr)).status).toBe(200);
    await until(() => inProgress(pr.headSha));
    const running = await runnerOf(pr);
    const pushed = push(pr);
    expect((await deliver(other(running), "synchronize", pushed)).status).toBe(200);
    const old = await until(() => completed(pr.headSha));
    expect(last(old).conclusion).toBe("cancelled");
    expect(last(old).output?.title).toBe(`Superseded by ${pushed.headSha.slice(0, 7)}`);
    const fresh = await until(() => completed(pushed.headSha));
    expect(last(fresh).conclusion).toBe("success");
    expect(reviewsOn(pr.headSha)).toHaveLength(0);
    expect(reviewsOn(pushed.headSha)).toHaveLength(1);
  });

  it("takes over the reviews of a SIGKILLed replica on the same check run, posted once", async () => {
    const pr = newPull();
    expect((await deliver(live(), "opened", pr)).status).toBe(200);
    const run = await until(() => inProgress(pr.headSha));
    const victim = await runnerOf(pr);
    process.kill(-victim.pid, "SIGKILL"); // no shutdown, no hand-back: the job's lock just expires
    await victim.exited;
    await startReplica(); // the fleet keeps its size; the survivor or the newcomer takes the job over
    await until(() => last(run).status === "completed");
    expect(last(run).conclusion).toBe("success");
    expect(runsOn(pr.headSha)).toHaveLength(1); // the same run, not a second one
    expect(run.history.filter((state) => state.status === "in_progress").length).toBeGreaterThan(1);
    expect(reviewsOn(pr.headSha)).toHaveLength(1);
  });

  it("a replica killed after posting its review, before completing its check run: the run is completed, the review not posted again", async () => {
    const pr = newPull();
    const hold = github.holdCompletion(pr.headSha);
    expect((await deliver(live(), "opened", pr)).status).toBe(200);
    await hold.arrived; // the review is posted; the completing PATCH is in flight
    expect(reviewsOn(pr.headSha)).toHaveLength(1);
    const victim = await runnerOf(pr);
    process.kill(-victim.pid, "SIGKILL");
    await victim.exited;
    hold.release();
    await startReplica();
    const run = await until(() => completed(pr.headSha));
    expect(last(run).conclusion).toBe("success");
    expect(runsOn(pr.headSha)).toHaveLength(1);
    // The taker found the review's hidden marker and did not post a second one.
    expect(reviewsOn(pr.headSha)).toHaveLength(1);
  });

  it("hands running reviews back on SIGTERM; another replica finishes them on the same run", async () => {
    const pr = newPull();
    expect((await deliver(live(), "opened", pr)).status).toBe(200);
    const run = await until(() => inProgress(pr.headSha));
    const leaving = await runnerOf(pr);
    await leaving.stop(20_000); // SIGTERM: no grace, the review goes back to the queue
    expect(leaving.output()).toContain("review handed back to the queue");
    await until(() => last(run).status === "completed");
    expect(last(run).conclusion).toBe("success");
    expect(runsOn(pr.headSha)).toHaveLength(1);
    expect(reviewsOn(pr.headSha)).toHaveLength(1);
    await startReplica();
  });

  it("answers 503 while Redis cannot take a job, and a redelivery later is reviewed", async () => {
    const pr = newPull();
    const a = live();
    const deliveryId = crypto.randomUUID();
    await redis.halt();
    try {
      expect((await deliver(a, "opened", pr, deliveryId)).status).toBe(503);
      expect((await fetch(`${a.url}/readyz`)).status).toBe(503);
    } finally {
      await redis.start();
    }
    await until(async () => (await fetch(`${a.url}/readyz`)).status === 200);
    // The 503 promised nothing. The Redis client may still send the commands it held once Redis
    // is back, so the job can land late; the redelivery with the same delivery id then adds
    // nothing, and there is still one run and one review.
    expect(runsOn(pr.headSha).length).toBeLessThanOrEqual(1);
    expect((await deliver(a, "opened", pr, deliveryId)).status).toBe(200); // GitHub's redelivery
    const run = await until(() => completed(pr.headSha));
    expect(last(run).conclusion).toBe("success");
    expect(runsOn(pr.headSha)).toHaveLength(1);
    expect(reviewsOn(pr.headSha)).toHaveLength(1);
  });

  it("finishes a review while Redis restarts in the middle of it", async () => {
    const pr = newPull();
    expect((await deliver(live(), "opened", pr)).status).toBe(200);
    const run = await until(() => inProgress(pr.headSha));
    await redis.restart(); // the append-only file brings the queue back as it was
    await until(() => last(run).status === "completed");
    expect(last(run).conclusion).toBe("success");
    expect(runsOn(pr.headSha)).toHaveLength(1);
    expect(reviewsOn(pr.headSha)).toHaveLength(1);
  });

  it("leaves no check run open", async () => {
    await until(() => github.checkRuns.every((r) => last(r).status === "completed"));
    expect(github.checkRuns.filter((r) => last(r).status !== "completed")).toEqual([]);
    // Probot's throttling (Bottleneck) keeps its state in the same Redis: shared by the replicas.
    expect(redis.cli("--scan", "--pattern", "b_*")).toMatch(/^b_/m);
  });
});
