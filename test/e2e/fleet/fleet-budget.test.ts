// A daily token cap kept by a fleet: three real server processes sharing one real redis-server,
// the fake GitHub and a scripted model that bills every review 15,100 tokens and answers slowly,
// so reviews on different replicas race for the last of the cap. Together they never spend past
// it; every pull request still gets a completed check run (reviewed, or skipped for the budget).

import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { formatExternalId } from "../../../src/forges/github/external-id.ts";
import { nothingFound } from "../../support/chat-turns.ts";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { fakeGitHubTarget, pullRequestEvent } from "../../support/fake-github-payloads.ts";
import { createOneChangeRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import { type RedisServer, startRedisServer } from "../../support/redis-server.ts";
import {
  type ScriptedProvider,
  type ScriptedTurn,
  startScriptedProvider,
} from "../../support/scripted-provider.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

const SECRET = `whsec-fleet-budget-${process.pid}-${Date.now()}`; // never under 16 characters, whatever the pid
const PULLS = 6;
const CAP = 50_000;
const PER_REVIEW = 15_100;
let redis: RedisServer;
let github: FakeGitHub;
let provider: ScriptedProvider;
let fixture: FixtureRepo;
const replicas: LoupeProcess[] = [];

function slowExpensiveReview(): ScriptedTurn {
  const body = nothingFound();
  const billed = {
    ...body,
    usage: { prompt_tokens: 15_000, completion_tokens: 100, total_tokens: PER_REVIEW },
  };
  return { fault: "delay", ms: 1500, next: { body: billed } };
}

beforeAll(async () => {
  redis = await startRedisServer();
  fixture = createOneChangeRepo(
    Array.from({ length: PULLS }, (_, i) => ({ branch: `change-${i + 1}`, a: i + 2 })),
  );
  github = await startFakeGitHub();
  github.addRepository({ owner: "octo", repo: "capped", source: fixture });
  provider = await startScriptedProvider(Array.from({ length: PULLS }, slowExpensiveReview));
  for (let i = 0; i < 3; i++) {
    replicas.push(
      await startLoupeProcess({
        command: "node",
        env: fakeWorldEnv({
          github,
          providerBaseURL: provider.baseURL,
          webhookSecret: SECRET,
          apiKey: `test-key-fleet-budget-${process.pid}`,
          extra: {
            REDIS_URL: redis.url,
            REVIEW_CONCURRENCY: "2",
            BUDGET_TOKENS_PER_DAY: String(CAP),
            // Each review may use 20,000 tokens: small enough that three fit under the cap at once.
            REVIEW_MAX_TOKENS: "20000",
          },
        }),
      }),
    );
  }
}, 120_000);

afterAll(async () => {
  for (const loupe of replicas) await loupe.stop(5000);
  await provider?.stop();
  await github?.stop();
  await redis?.stop();
  fixture?.dispose();
});

it("never spends past the cap across three replicas racing for it", async () => {
  const target = fakeGitHubTarget(github, "capped");
  const pulls = Array.from({ length: PULLS }, (_, i) =>
    github.addPullRequest({ owner: "octo", repo: "capped", number: i + 1, headRef: `change-${i + 1}` }),
  );
  const answers = await Promise.all(
    pulls.map((pr, i) =>
      deliverWebhook({
        url: replicas[i % 3]!.webhookUrl,
        event: "pull_request",
        payload: pullRequestEvent("opened", target, pr),
        secret: SECRET,
      }),
    ),
  );
  expect(answers.map((a) => a.status)).toEqual(pulls.map(() => 200));
  const endings = await replicas[0]!.until(() => {
    const done = pulls.map((pr) =>
      github.checkRuns
        .filter((r) => r.externalId === formatExternalId(pr.number))
        .map((r) => r.history.at(-1)!)
        .find((h) => h.status === "completed"),
    );
    return done.every((d) => d !== undefined) ? done : undefined;
  }, "every pull request's completed check run");
  const reviewed = endings.filter((e) => e!.conclusion === "success").length;
  const refused = endings.filter(
    (e) => e!.conclusion === "skipped" && e!.output?.summary?.includes("Budget reached"),
  );
  // Every model request bills PER_REVIEW tokens: together they stay within the cap.
  expect(provider.requests.length * PER_REVIEW).toBeLessThanOrEqual(CAP);
  expect(reviewed).toBe(provider.requests.length);
  expect(reviewed).toBeGreaterThan(0);
  expect(reviewed + refused.length).toBe(PULLS);
});
