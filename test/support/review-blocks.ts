// The longest block of the event loop while one review runs through the app, from its webhook to
// its completed check run (event-loop-blocks.ts: the process's own work only), after one ordinary
// review in the same process: what a fresh process pays once (loading and compiling modules) is
// start-up, not a stall.

import { expect } from "@jest/globals";
import nock from "nock";
import {
  type AppScenario,
  expectCleanEnd,
  type HarnessSettings,
  mockPublish,
  mockReviewStart,
  PR,
  pullRequestPayload,
  type ReviewMocks,
} from "./app-scenario.ts";
import { finding, review, stopTurn } from "./chat-turns.ts";
import { type EventLoopBlocks, probeEventLoopBlocks } from "./event-loop-blocks.ts";
import type { ProbotHarness } from "./probot-harness.ts";

export interface OrdinaryReview {
  readonly mocks?: ReviewMocks;
  /** The head the webhook names (the fixture's first head by default). */
  readonly headSha?: string;
  readonly settings?: HarnessSettings;
}

/** One ordinary review in this process, published and completed, its mocks all used. */
export async function warmUpReview(app: AppScenario, ordinary: OrdinaryReview = {}): Promise<void> {
  const h = await app.start([{ body: stopTurn(review([finding({ severity: "low" })])) }], ordinary.settings);
  const gh = mockReviewStart(app.fx, { network: true, ...ordinary.mocks });
  mockPublish(gh).createReview(PR, [200, { id: 1 }]);
  await h.receive("pull_request", pullRequestPayload(app.fx, "opened", ordinary.headSha));
  await h.drain();
  expect(gh.completion()).toMatchObject({ status: "completed", conclusion: "success" });
  await app.provider.stop();
  expectCleanEnd(h, null, [gh]);
  nock.cleanAll();
}

/** The pull request opened at `headSha` and drained; the longest block of the loop meanwhile, and its bound. */
export async function longestBlockOfReview(
  h: ProbotHarness,
  app: AppScenario,
  headSha?: string,
): Promise<EventLoopBlocks> {
  const probe = probeEventLoopBlocks();
  try {
    await h.receive("pull_request", pullRequestPayload(app.fx, "opened", headSha));
    await h.drain();
    return probe.stop();
  } finally {
    probe.stop();
  }
}
