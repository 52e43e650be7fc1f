// A head with 48 one-megabyte files of one repeated character (a few KB as a pack) and a model
// that searches them for a 512-character query that nearly matches everywhere: Buffer.indexOf
// takes about 200 ms a file on that, over a minute for a repository of such files, all in one
// turn of the event loop that every installation's webhooks share. The search reads each byte
// once and lets other work run, so the whole review (webhook, fetch, the model loop with the
// search, publishing) never blocks the event loop for 100 ms (the probe of
// app-glob-cost.test.ts: the process's own work only), and the model gets the search's answer.

import { describe, expect, it } from "@jest/globals";
import {
  expectCleanEnd,
  mockPublish,
  mockReviewStart,
  PR,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { finding, review, stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";
import { longestBlockOfReview, warmUpReview } from "../../support/review-blocks.ts";
import { NEAR_MISS, writeRepeatedCharacterFiles } from "../../support/stall-inputs.ts";

let head = "";
const app = useAppScenario({
  harness: { botLogin: "loupe-test[bot]" },
  beforePublish: (fx) => {
    writeRepeatedCharacterFiles(fx.repo);
    head = fx.repo.commit("data: one repeated character");
  },
});

describe("search_repository over megabytes of one repeated character", () => {
  it("answers the model without blocking the event loop, and the review completes", async () => {
    await warmUpReview(app, { headSha: head, mocks: { headSha: head, compareData: app.fx.compareData() } });
    const h = await app.start([
      {
        body: toolCallsTurn([{ id: "call_1", name: "search_repository", arguments: { query: NEAR_MISS } }]),
      },
      { body: stopTurn(review([finding({ line: 2, severity: "high" })])) },
    ]);
    // The pull request's own files, as GitHub lists them; the head also holds the data files.
    const gh = mockReviewStart(app.fx, { network: true, headSha: head, compareData: app.fx.compareData() });
    mockPublish(gh).createReview(PR, [200, { id: 7 }]);

    const { maxBlockMs, boundMs } = await longestBlockOfReview(h, app, head);

    expect(gh.completion()).toMatchObject({ status: "completed", conclusion: "success" });
    expect(gh.reviewsPosted()[0]!.comments).toEqual([
      expect.objectContaining({ path: "src/service.ts", line: 2, side: "RIGHT" }),
    ]);
    // The search read all 48 MiB and found nothing: no match, not cut.
    const toolMessage = JSON.parse(app.provider.requests[1]!.bodyText).messages.at(-1);
    expect(JSON.parse(toolMessage.content)).toEqual({
      ok: true,
      query: NEAR_MISS,
      path: "",
      matches: [],
      truncated: false,
    });
    expect(maxBlockMs).toBeLessThan(boundMs);
    expectCleanEnd(h, app.provider, [gh]);
  });
});
