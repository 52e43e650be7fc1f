// The review's clock reaches its tool loop, in this thread and in a repository worker: the loop
// counts its rounds and its deadline on the review's clock (ReviewRun.now; in a worker, that clock's
// offset from the machine's at dispatch), and gives the provider the same time left on the
// machine's clock. Through Probot, over the real git server and the scripted provider.

import { describe, expect, it } from "@jest/globals";
import type { HarnessSettings } from "../../support/app-scenario.ts";
import {
  expectCleanEnd,
  mockHistory,
  mockReviewStart,
  pullRequestPayload,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { review, stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";
import type { ScriptedTurn } from "../../support/scripted-provider.ts";

const app = useAppScenario();

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;
const READ = {
  body: toolCallsTurn([
    { id: "call_1", name: "read_repository_file", arguments: { path: "src/service.ts" } },
  ]),
};
const FINAL = { body: stopTurn(review([])) };

async function reviewOn(script: readonly ScriptedTurn[], settings: HarnessSettings) {
  const h = await app.start(script, { ...settings, limits: { verify: false } });
  const gh = mockReviewStart(app.fx, { app: true });
  mockHistory(gh);
  await h.receive("pull_request", pullRequestPayload(app.fx, "opened"), `delivery-${Math.random()}`);
  await h.drain();
  const summary = (gh.completion().output as { summary: string }).summary;
  await h.close();
  return { summary, requests: app.provider.requests.length, h, gh };
}

describe.each([
  ["in this thread", {}],
  ["in a repository worker", { isolation: {} }],
] as const)("the review's clock %s", (_where, isolation: HarnessSettings) => {
  it.each([
    ["a year behind", -YEAR_MS],
    ["a year ahead", YEAR_MS],
  ])(
    "%s the machine's: the loop's deadline is on it, and the provider still has its time",
    async (_name, offset) => {
      // The loop ends by the review's deadline, an instant on the review's clock: read on the
      // machine's clock, a year behind would be long past (review_timeout before the first round).
      const run = await reviewOn([READ, FINAL], { ...isolation, now: () => Date.now() + offset });
      expect(run.requests).toBe(2);
      expect(run.summary).toContain("`final_review`");
      expectCleanEnd(run.h, app.provider, [run.gh]);
    },
  );
});

describe("the review's clock in this thread", () => {
  it("moved past the review's deadline while a round is answered: the loop stops before the next", async () => {
    // An hour (past REVIEW_TIMEOUT_MS) once the provider has been asked: the loop, on the review's
    // clock, has no time for a second round; on the machine's it would ask for the final review.
    const now = () => Date.now() + (app.provider.requests.length > 0 ? 60 * 60 * 1000 : 0);
    const run = await reviewOn([READ, FINAL], { now });
    expect(run.requests).toBe(1);
    expect(run.summary).toContain("`review_timeout`");
    expectCleanEnd(run.h, app.provider, [run.gh]);
  });
});
