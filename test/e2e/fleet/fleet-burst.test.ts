// A burst of pull requests in one installation, across a fleet of three replicas on one Redis,
// against a fake GitHub that paces an installation's writes as GitHub does (a second apart there,
// scaled down here with Loupe's own write spacing). Every webhook must be answered 2xx without
// waiting on GitHub — far sooner than the paced writes of its burst could have been made — however
// far behind GitHub's pace the queued check runs fall; every pull request is
// reviewed once, on one check run, and none is left open, also when a replica is SIGKILLed in the
// middle of the burst (its announcements half made, its reviews taken over).

import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import {
  fakeGitHubTarget,
  type PullRequestFacts,
  pullRequestEvent,
} from "../../support/fake-github-payloads.ts";
import { createOneChangeRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import { startRealisticModel } from "../../support/realistic-model.ts";
import { type RedisServer, startRedisServer } from "../../support/redis-server.ts";
import type { ScriptedProvider } from "../../support/scripted-provider.ts";
import { type DeliveryResult, deliverWebhook } from "../../support/webhook-delivery.ts";

const SECRET = `whsec-burst-${process.pid}-${Date.now()}`; // never under 16 characters, whatever the pid
const PULLS = 40;
/**
 * GitHub's pace for one installation's writes (a second there), scaled down with Loupe's write
 * spacing: the assertions compare the two as ratios.
 */
const PACE_MS = 300;
/** Far beyond the burst's minute or two, and short of the test's own timeout. */
const GIVE_UP_MS = 480_000;
let redis: RedisServer;
let github: FakeGitHub;
let provider: ScriptedProvider;
let fixture: FixtureRepo;
const replicas: LoupeProcess[] = [];

const target = () => fakeGitHubTarget(github, "burst");

async function startReplica(): Promise<LoupeProcess> {
  const loupe = await startLoupeProcess({
    command: "node",
    env: fakeWorldEnv({
      github,
      providerBaseURL: provider.baseURL,
      webhookSecret: SECRET,
      apiKey: `test-key-burst-${process.pid}`,
      extra: {
        REDIS_URL: redis.url,
        FLEET_LOCK_MS: "2500",
        REVIEW_CONCURRENCY: "2",
        LOG_LEVEL: "info",
        // Loupe spaces its writes at the fake's pace, as at GitHub's by default.
        GITHUB_WRITE_SPACING_MS: String(PACE_MS),
      },
    }),
  });
  replicas.push(loupe);
  // Ready, not only alive: the App (and its queue) runs once /readyz answers 200.
  while ((await fetch(`${loupe.url}/readyz`)).status !== 200) await new Promise((r) => setTimeout(r, 100));
  return loupe;
}

/**
 * Polls the fake's state. No duration is asserted: the bound is only there to fail with what the
 * replicas said (a review that never ends) before the test's own timeout fails with nothing.
 */
async function until<T>(probe: () => T | undefined | false, stuck: () => string): Promise<T> {
  const giveUpAt = Date.now() + GIVE_UP_MS;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > giveUpAt) {
      const logs = replicas.map(
        (loupe, i) =>
          `replica ${i} (alive ${loupe.alive()}):\n${loupe.output().split("\n").slice(-60).join("\n")}`,
      );
      throw new Error(`not done after ${GIVE_UP_MS / 1000} s: ${stuck()}\n${logs.join("\n")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  redis = await startRedisServer();
  fixture = createOneChangeRepo(
    Array.from({ length: PULLS }, (_, i) => ({ branch: `change-${i + 1}`, a: i + 2 })),
  );
  github = await startFakeGitHub({ paceWritesMs: PACE_MS });
  github.addRepository({ owner: "octo", repo: "burst", source: fixture });
  // The realistic model reads each diff before it answers, and finds nothing to report.
  provider = await startRealisticModel({ findings: [] });
  await Promise.all([startReplica(), startReplica(), startReplica()]);
}, 120_000);

afterAll(async () => {
  for (const loupe of replicas) await loupe.stop(5000);
  await provider?.stop();
  await github?.stop();
  await redis?.stop();
  fixture?.dispose();
});

const fresh = new http.Agent({ keepAlive: false });

const deliverAll = (pulls: readonly PullRequestFacts[], to: readonly LoupeProcess[]) =>
  Promise.all(
    pulls.map((pr, i) =>
      deliverWebhook({
        url: to[i % to.length]!.webhookUrl,
        event: "pull_request",
        payload: pullRequestEvent("opened", target(), pr),
        secret: SECRET,
        // A connection of its own: the global agent may reuse the health check's idle socket just
        // as the server closes it (its keep-alive timeout), which reads as a hang-up.
        agent: fresh,
      }).catch((error: unknown) => {
        throw new Error(
          `delivery ${pr.number} to ${to[i % to.length]!.webhookUrl} (alive ${to[i % to.length]!.alive()}): ${String(error)}`,
        );
      }),
    ),
  );

describe("a burst of pull requests across a fleet, GitHub pacing writes", () => {
  it("answers every webhook promptly, reviews each pull request once, leaves no run open, with a replica SIGKILLed mid-burst", async () => {
    const pulls = Array.from({ length: PULLS }, (_, i) =>
      github.addPullRequest({ owner: "octo", repo: "burst", number: i + 1, headRef: `change-${i + 1}` }),
    );
    const half = PULLS / 2;
    const answers: DeliveryResult[] = await deliverAll(pulls.slice(0, half), replicas);
    const victim = replicas[2]!;
    process.kill(-victim.pid, "SIGKILL"); // its announcements and reviews are half made
    await victim.exited;
    answers.push(...(await deliverAll(pulls.slice(half), replicas.slice(0, 2))));

    // Every webhook answered 2xx without waiting on GitHub. The fake answers the installation's
    // writes one pace apart, so a handler that awaited even one write (its check run) would answer
    // the last of each half's concurrent deliveries no sooner than `half` paces after the first.
    // The bound is half of that: it still fails such a handler, by twice, and leaves room for a
    // machine shared with other work (the answers slow with load; the fake's pace does not).
    expect(answers.map((a) => a.status)).toEqual(pulls.map(() => 200));
    const slowest = Math.max(...answers.map((a) => a.latencyMs));
    expect(slowest / PACE_MS).toBeLessThan(half / 2);

    const runsOf = (pr: PullRequestFacts) => github.checkRuns.filter((r) => r.headSha === pr.headSha);
    const done = (pr: PullRequestFacts) =>
      runsOf(pr).length > 0 && runsOf(pr).every((r) => r.history.at(-1)?.status === "completed");
    await until(
      () => pulls.every(done),
      () =>
        JSON.stringify(
          pulls
            .filter((pr) => !done(pr))
            .map((pr) => ({ pr: pr.number, runs: runsOf(pr).map((r) => r.history.map((h) => h.status)) })),
        ),
    );
    const outcome = pulls.map((pr) => ({
      pr: pr.number,
      runs: runsOf(pr).map((r) => r.history.at(-1)?.conclusion),
      reviews: github.reviews.filter((r) => r.commitId === pr.headSha).length,
    }));
    expect(outcome).toEqual(pulls.map((pr) => ({ pr: pr.number, runs: ["success"], reviews: 1 })));
  }, 600_000);
});
