// A `.github/loupe.yml` at the glob limits — 100 patterns in each list, each 256 characters with
// 64 brace alternatives that all fit a long run of `a`s and 25 stars — against one changed file
// whose name is 4,096 `a`s: trying each alternative in turn took over 20 seconds for that one
// name, in one turn of the event loop. With one automaton for each list, the review runs whole
// (webhook, configuration, matching, fetch, the model loop, publishing) and the event loop is
// never blocked for 100 ms (the probe of app-glob-cost.test.ts: the process's own work only).

import { describe, expect, it } from "@jest/globals";
import {
  expectCleanEnd,
  mockPublish,
  mockReviewStart,
  PR,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { finding, review, stopTurn } from "../../support/chat-turns.ts";
import { longestBlockOfReview, warmUpReview } from "../../support/review-blocks.ts";
import { configAtTheLimits, LONG_NAME } from "../../support/stall-inputs.ts";

const app = useAppScenario({ harness: { botLogin: "loupe-test[bot]" } });

/**
 * Once per process, an ordinary review with an ordinary configuration: what a fresh process pays
 * once (loading and compiling the YAML parser, the glob compiler…) is start-up, not a stall.
 */
/**
 * As the server runs a review: the fetch, the loop and the plan in a worker thread. What is left
 * on the server's thread is what this test is about (the configuration and the path matching);
 * in the test's own thread the fetch from its in-process git server showed blocks over 100 ms
 * on a loaded machine that have nothing to do with the globs.
 */
const ISOLATED = { isolation: {} };

describe("a .github/loupe.yml at the glob limits, with brace alternatives", () => {
  it("is matched against a 4,096-character name without blocking, and the review completes", async () => {
    await warmUpReview(app, {
      settings: ISOLATED,
      mocks: { config: "paths:\n  include: ['src/**', '{lib,docs}/**']\n  exclude: ['**/*.min.js']\n" },
    });
    const h = await app.start(
      [{ body: stopTurn(review([finding({ line: 2, severity: "high" })])) }],
      ISOLATED,
    );
    const compare = app.fx.compareData();
    const files = [
      ...(compare.files as Record<string, unknown>[]),
      {
        filename: LONG_NAME,
        status: "added",
        additions: 1,
        deletions: 0,
        changes: 1,
        patch: "@@ -0,0 +1 @@\n+x",
      },
    ];
    const config = configAtTheLimits();
    expect(config.length).toBeLessThan(64 * 1024);
    const gh = mockReviewStart(app.fx, { config, network: true, compareData: { ...compare, files } });
    mockPublish(gh).createReview(PR, [200, { id: 7 }]);

    const { maxBlockMs, boundMs } = await longestBlockOfReview(h, app);

    expect(gh.completion()).toMatchObject({ status: "completed", conclusion: "success" });
    expect(gh.reviewsPosted()[0]!.comments).toEqual([
      expect.objectContaining({ path: "src/service.ts", line: 2, side: "RIGHT" }),
    ]);
    // The long name was reviewed (no pattern of either list but `**` matches it).
    expect(app.provider.requests[0]!.bodyText).toContain(LONG_NAME);
    expect(maxBlockMs).toBeLessThan(boundMs);
    expectCleanEnd(h, app.provider, [gh]);
  });
});
