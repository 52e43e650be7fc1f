// The model provider shared across a fleet: three real server processes on one real redis-server,
// the fake GitHub, and a model that takes a fixed time per answer and records when each request
// arrived and how many were in flight. With PROVIDER_MAX_IN_FLIGHT=2 the provider never sees more
// than two at once and every review still completes; a 429 with Retry-After: 5 answered to one
// replica holds every replica's next request until five seconds after it.

import { afterEach, expect, it } from "@jest/globals";
import { formatExternalId } from "../../../src/forges/github/external-id.ts";
import { nothingFound } from "../../support/chat-turns.ts";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { fakeGitHubTarget, pullRequestEvent } from "../../support/fake-github-payloads.ts";
import { createOneChangeRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import { type RedisServer, startRedisServer } from "../../support/redis-server.ts";
import {
  type RecordedRequest,
  type ScriptedProvider,
  type ScriptedTurn,
  startScriptedProvider,
} from "../../support/scripted-provider.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

const SECRET = `whsec-provider-share-${process.pid}-${Date.now()}`; // never under 16 characters, whatever the pid
const ANSWER_MS = 600;

interface World {
  readonly redis: RedisServer;
  readonly github: FakeGitHub;
  readonly provider: ScriptedProvider;
  readonly fixture: FixtureRepo;
  readonly replicas: LoupeProcess[];
}
let world: World | null = null;

afterEach(async () => {
  if (world === null) return;
  for (const loupe of world.replicas) await loupe.stop(5000);
  await world.provider.stop();
  await world.github.stop();
  await world.redis.stop();
  world.fixture.dispose();
  world = null;
});

const answer = (): ScriptedTurn => ({
  fault: "delay",
  ms: ANSWER_MS,
  next: { body: nothingFound() },
});

async function startWorld(
  pulls: number,
  extra: Record<string, string>,
  respond: (request: RecordedRequest) => ScriptedTurn,
): Promise<World> {
  const redis = await startRedisServer();
  const fixture = createOneChangeRepo(
    Array.from({ length: pulls }, (_, i) => ({ branch: `change-${i + 1}`, a: i + 2 })),
  );
  const github = await startFakeGitHub();
  github.addRepository({ owner: "octo", repo: "shared", source: fixture });
  const provider = await startScriptedProvider([], { responder: respond });
  const replicas: LoupeProcess[] = [];
  world = { redis, github, provider, fixture, replicas };
  for (let i = 0; i < 3; i++) {
    replicas.push(
      await startLoupeProcess({
        command: "node",
        env: fakeWorldEnv({
          github,
          providerBaseURL: provider.baseURL,
          webhookSecret: SECRET,
          apiKey: `test-key-provider-share-${process.pid}`,
          extra: { REDIS_URL: redis.url, ...extra },
        }),
      }),
    );
  }
  return world;
}

/** Opens the pull requests, one delivery to each replica in turn; their completed check runs. */
async function reviewAll(w: World, pulls: number) {
  const target = fakeGitHubTarget(w.github, "shared");
  const prs = Array.from({ length: pulls }, (_, i) =>
    w.github.addPullRequest({
      owner: "octo",
      repo: "shared",
      number: i + 1,
      headRef: `change-${i + 1}`,
      title: `Shared change number ${i + 1}`,
    }),
  );
  const answers = await Promise.all(
    prs.map((pr, i) =>
      deliverWebhook({
        url: w.replicas[i % 3]!.webhookUrl,
        event: "pull_request",
        payload: pullRequestEvent("opened", target, pr),
        secret: SECRET,
      }),
    ),
  );
  expect(answers.map((a) => a.status)).toEqual(prs.map(() => 200));
  return await w.replicas[0]!.until(() => {
    const done = prs.map((pr) =>
      w.github.checkRuns
        .filter((r) => r.externalId === formatExternalId(pr.number))
        .map((r) => r.history.at(-1)!)
        .find((h) => h.status === "completed"),
    );
    return done.every((d) => d !== undefined) ? done : undefined;
  }, "every pull request's completed check run");
}

it("never has more than PROVIDER_MAX_IN_FLIGHT requests at the provider across three replicas", async () => {
  const PULLS = 6;
  // Each replica could run two reviews at once: six requests in flight, were it not for the limit.
  const w = await startWorld(PULLS, { PROVIDER_MAX_IN_FLIGHT: "2", REVIEW_CONCURRENCY: "2" }, answer);
  const endings = await reviewAll(w, PULLS);
  expect(endings.map((e) => e!.conclusion)).toEqual(Array(PULLS).fill("success"));
  expect(w.provider.requests).toHaveLength(PULLS);
  expect(w.provider.peakInFlight()).toBe(2);
  expect(Math.max(...w.provider.requests.map((r) => r.inFlightOnArrival))).toBe(2);
}, 240_000);

it("pauses every replica's requests for the Retry-After of a 429 one of them was answered", async () => {
  const PULLS = 3;
  let answered429 = false;
  const w = await startWorld(
    PULLS,
    // One request in flight: nothing else is at the provider when the 429 comes back, so every
    // request after it was sent after the fleet's back-off was set.
    { PROVIDER_MAX_IN_FLIGHT: "1", REVIEW_CONCURRENCY: "1" },
    () => {
      if (answered429) return answer();
      answered429 = true;
      return { status: 429, headers: { "retry-after": "5" }, body: { error: { message: "slow down" } } };
    },
  );
  const endings = await reviewAll(w, PULLS);
  expect(endings.map((e) => e!.conclusion)).toEqual(Array(PULLS).fill("success"));
  const [limited, ...after] = w.provider.requests;
  // The review that met the 429 asked again, and so did the other two: four requests in all.
  expect(after).toHaveLength(PULLS);
  const pullOf = (r: RecordedRequest) => /Shared change number (\d)/.exec(r.bodyText)?.[1];
  expect(new Set(after.map(pullOf)).size).toBe(PULLS);
  for (const request of after) expect(request.arrivedAt - limited!.arrivedAt).toBeGreaterThanOrEqual(5000);
}, 240_000);
