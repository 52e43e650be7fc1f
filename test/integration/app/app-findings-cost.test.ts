// A valid final review of 100 findings that each span most of a one-megabyte file: checking them
// and planning the review split the file and walked it once per finding, seconds in one turn of
// the event loop. Now each file is read and indexed once, so the whole review (webhook, fetch, the
// final review's checks, planning, publishing) never blocks the event loop for 100 ms (the probe
// of app-glob-cost.test.ts: the process's own work only), and every finding is placed.

import { describe, expect, it } from "@jest/globals";
import {
  expectCleanEnd,
  mockPublish,
  mockReviewStart,
  PR,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { review, stopTurn } from "../../support/chat-turns.ts";
import { longestBlockOfReview, warmUpReview } from "../../support/review-blocks.ts";
import {
  BIG_FILE as BIG,
  BIG_FILE_LINES as LINES,
  megabyteFile,
  spanningFindings,
} from "../../support/stall-inputs.ts";

let head = "";
const app = useAppScenario({
  harness: { botLogin: "loupe-test[bot]" },
  beforePublish: (fx) => {
    fx.repo.write(BIG, megabyteFile());
    head = fx.repo.commit("a megabyte file");
  },
});

describe("a final review of 100 findings over a megabyte file", () => {
  it("is checked and planned without blocking the event loop, and the review completes", async () => {
    await warmUpReview(app);
    const h = await app.start([{ body: stopTurn(review(spanningFindings())) }]);
    const gh = mockReviewStart(app.fx, {
      network: true,
      headSha: head,
      compareData: app.fx.compareData(head),
    });
    mockPublish(gh).createReview(PR, [200, { id: 7 }]);

    const { maxBlockMs, boundMs } = await longestBlockOfReview(h, app, head);

    expect(gh.completion()).toMatchObject({ status: "completed", conclusion: "success" });
    // max_findings (50) inline, each over its whole range in the file's one hunk; the rest in the body.
    const comments = gh.reviewsPosted()[0]!.comments as Record<string, unknown>[];
    expect(comments).toHaveLength(50);
    expect(comments[0]).toMatchObject({ path: BIG, start_line: 1, line: LINES, side: "RIGHT" });
    expect(maxBlockMs).toBeLessThan(boundMs);
    expectCleanEnd(h, app.provider, [gh]);
  });
});
