// Fairness between installations across a fleet: two replicas on one real redis-server, one review
// at a time each, a model slow enough that the queue builds up. Installation 100 opens 24 pull
// requests at once (a burst of webhooks, delivered side by side to both replicas); a second later
// installation 200 opens 3. An installation's n-th live job is queued with priority n
// (docs/deploy.md), so installation 200's reviews start as soon as a replica is free, before
// installation 100's later ones: not after installation 100's burst has drained. BullMQ's own
// record of each job (its priority, when a replica took it) is what is checked.

import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Queue } from "bullmq";
import type { GitHubAppReview } from "../../../src/domain/review-request.ts";
import { REVIEW_QUEUE_NAME } from "../../../src/fleet/fleet-timing.ts";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { type PullRequestFacts, pullRequestEvent } from "../../support/fake-github-payloads.ts";
import { createOneChangeRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import { startRealisticModel } from "../../support/realistic-model.ts";
import { type RedisServer, startRedisServer } from "../../support/redis-server.ts";
import type { ScriptedProvider } from "../../support/scripted-provider.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

const SECRET = `whsec-fairness-${process.pid}-${Date.now()}`; // never under 16 characters, whatever the pid
const REPLICAS = 2;
const INSTALLATIONS = [
  { id: 100, repo: "hundred", pulls: 24 },
  { id: 200, repo: "two-hundred", pulls: 3 },
] as const;

let redis: RedisServer;
let github: FakeGitHub;
let provider: ScriptedProvider;
const fixtures: FixtureRepo[] = [];
const replicas: LoupeProcess[] = [];
let queue: Queue | undefined;

async function startReplica(): Promise<LoupeProcess> {
  const loupe = await startLoupeProcess({
    command: "node",
    env: fakeWorldEnv({
      github,
      providerBaseURL: provider.baseURL,
      webhookSecret: SECRET,
      apiKey: `test-key-fairness-${process.pid}`,
      extra: { REDIS_URL: redis.url, REVIEW_CONCURRENCY: "1", LOG_LEVEL: "info" },
    }),
  });
  replicas.push(loupe);
  while ((await fetch(`${loupe.url}/readyz`)).status !== 200) await new Promise((r) => setTimeout(r, 100));
  return loupe;
}

beforeAll(async () => {
  redis = await startRedisServer();
  github = await startFakeGitHub();
  for (const { id, repo, pulls } of INSTALLATIONS) {
    const fixture = createOneChangeRepo(
      Array.from({ length: pulls }, (_, i) => ({ branch: `pr-${i + 1}`, a: i + 2 })),
    );
    fixtures.push(fixture);
    github.addRepository({ owner: "octo", repo, source: fixture, installationId: id });
  }
  // A review takes seconds here (its worker, the fetch, the model's turns): the burst waits in the queue.
  provider = await startRealisticModel({ findings: [] });
  for (let i = 0; i < REPLICAS; i++) await startReplica();
}, 120_000);

afterAll(async () => {
  await queue?.close();
  for (const loupe of replicas) await loupe.stop(5000);
  await provider?.stop();
  await github?.stop();
  await redis?.stop();
  for (const fixture of fixtures) fixture.dispose();
});

const fresh = new http.Agent({ keepAlive: false });

function deliverAll(installation: (typeof INSTALLATIONS)[number], pulls: readonly PullRequestFacts[]) {
  const target = {
    htmlBase: github.url,
    owner: "octo",
    repo: installation.repo,
    defaultBranch: "main",
    installationId: installation.id,
  };
  return Promise.all(
    pulls.map((pr, i) =>
      deliverWebhook({
        url: replicas[i % replicas.length]!.webhookUrl,
        event: "pull_request",
        payload: pullRequestEvent("opened", target, pr),
        secret: SECRET,
        agent: fresh,
      }),
    ),
  );
}

describe("fairness between installations across a fleet", () => {
  it("starts installation 200's reviews before the rest of installation 100's burst", async () => {
    const pullsOf = ({ repo, pulls }: (typeof INSTALLATIONS)[number]) =>
      Array.from({ length: pulls }, (_, i) =>
        github.addPullRequest({ owner: "octo", repo, number: i + 1, headRef: `pr-${i + 1}` }),
      );
    const [hundred, twoHundred] = INSTALLATIONS;
    const first = await deliverAll(hundred, pullsOf(hundred));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const second = await deliverAll(twoHundred, pullsOf(twoHundred));
    expect([...first, ...second].map((a) => a.status)).toEqual(Array(27).fill(200));
    // From here installation 200's jobs are queued (a webhook is answered once its job is).
    const queued = Date.now();
    // The jobs as BullMQ keeps them: their installation, priority, and when a replica took each.
    queue = new Queue(REVIEW_QUEUE_NAME, { connection: { host: "127.0.0.1", port: redis.port } });
    const jobsNow = async () =>
      (await queue!.getJobs(["prioritized", "waiting", "active", "completed", "delayed"])).map((job) => ({
        installation: (job.data as { request: GitHubAppReview }).request.installationId,
        priority: job.priority,
        taken: job.processedOn ?? null,
      }));
    const prioritiesOf = (jobs: Awaited<ReturnType<typeof jobsNow>>, id: number) =>
      jobs
        .filter((j) => j.installation === id)
        .map((j) => j.priority)
        .sort((a, b) => a - b);
    // The n-th live job of an installation has priority n: a burst delivered side by side too.
    const admitted = await jobsNow();
    expect(prioritiesOf(admitted, 100)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    expect(prioritiesOf(admitted, 200)).toEqual([1, 2, 3]);

    const completed = () => github.checkRuns.filter((r) => r.history.at(-1)?.status === "completed").length;
    while (completed() < 27) await new Promise((resolve) => setTimeout(resolve, 200));
    const jobs = (await jobsNow()).map((j) => ({ ...j, taken: j.taken! }));
    // So each of installation 200's jobs was taken before every job of installation 100 with a
    // higher priority that was still waiting when 200's were queued.
    const overtaken = jobs
      .filter((a) => a.installation === 200)
      .flatMap((a) =>
        jobs.filter(
          (b) => b.installation === 100 && b.taken > queued && b.priority > a.priority && b.taken < a.taken,
        ),
      );
    expect(overtaken).toEqual([]);
    // And most of installation 100's burst was still waiting then: the test shows an order.
    expect(jobs.filter((b) => b.installation === 100 && b.taken > queued).length).toBeGreaterThan(12);
  }, 600_000);
});
