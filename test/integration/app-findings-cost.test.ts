// A valid final review of 100 findings that each span most of a one-megabyte file: checking them
// and planning the review split the file and walked it once per finding, seconds in one turn of
// the event loop. Now each file is read and indexed once, so the whole review (webhook, fetch, the
// final review's checks, planning, publishing) never blocks the event loop for 100 ms (the probe
// of app-glob-cost.test.ts: the process's own work only), and every finding is placed.

import { describe, expect, it } from "@jest/globals";
import nock from "nock";
import {
  expectCleanEnd,
  mockPublish,
  mockReviewStart,
  PR,
  pullRequestPayload,
  useAppScenario,
} from "../support/app-scenario.ts";
import { finding, review, stopTurn } from "../support/chat-turns.ts";
import { probeEventLoopBlocks } from "../support/event-loop-blocks.ts";
import {
  BIG_FILE as BIG,
  BIG_FILE_LINES as LINES,
  megabyteFile,
  spanningFindings,
} from "../support/stall-inputs.ts";

let head = "";
const app = useAppScenario({
  harness: { botLogin: "loupe-test[bot]" },
  beforePublish: (fx) => {
    fx.repo.write(BIG, megabyteFile());
    head = fx.repo.commit("a megabyte file");
  },
});

/** Once per process, an ordinary review: what a fresh process pays once is start-up, not a stall. */
async function warmUp(): Promise<void> {
  const h = await app.start([{ body: stopTurn(review([finding({ severity: "low" })])) }]);
  const gh = mockReviewStart(app.fx, { network: true });
  mockPublish(gh).createReview(PR, [200, { id: 1 }]);
  await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
  await h.drain();
  expect(gh.completion()).toMatchObject({ status: "completed", conclusion: "success" });
  await app.provider.stop();
  expectCleanEnd(h, null, [gh]);
  nock.cleanAll();
}

describe("a final review of 100 findings over a megabyte file", () => {
  it("is checked and planned without blocking the event loop, and the review completes", async () => {
    await warmUp();
    const h = await app.start([{ body: stopTurn(review(spanningFindings())) }]);
    const gh = mockReviewStart(app.fx, {
      network: true,
      headSha: head,
      compareData: app.fx.compareData(head),
    });
    mockPublish(gh).createReview(PR, [200, { id: 7 }]);

    const probe = probeEventLoopBlocks();
    let maxBlockMs: number;
    try {
      await h.receive("pull_request", pullRequestPayload(app.fx, "opened", head));
      await h.drain();
      maxBlockMs = probe.stop().maxBlockMs;
    } finally {
      probe.stop();
    }

    expect(gh.completion()).toMatchObject({ status: "completed", conclusion: "success" });
    // max_findings (50) inline, each over its whole range in the file's one hunk; the rest in the body.
    const comments = gh.reviewsPosted()[0]!.comments as Record<string, unknown>[];
    expect(comments).toHaveLength(50);
    expect(comments[0]).toMatchObject({ path: BIG, start_line: 1, line: LINES, side: "RIGHT" });
    expect(maxBlockMs).toBeLessThan(100);
    expectCleanEnd(h, app.provider, [gh]);
  });
});
