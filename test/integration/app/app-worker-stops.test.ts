// A review whose repository work is stopped from outside — its worker thread ran out of memory or
// past its deadline — ends with that reason wherever it was, and its check run is completed with
// the reason's static sentence; nothing is published. Here the ports say so as the isolated ports
// do (a LoupeError whose code is the reason, for the fetch and the plan, which have no loop result
// to carry it); test/integration/isolation/*.test.ts and test/e2e/app/app-isolation.test.ts stop real
// workers.

import { describe, expect, it } from "@jest/globals";
import { LoupeError } from "../../../src/domain/errors.ts";
import { TERMINATION_SENTENCES } from "../../../src/domain/outcome.ts";
import {
  expectCleanEnd,
  mockHistory,
  mockReviewStart,
  pullRequestPayload,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { finding, review, stopTurn } from "../../support/chat-turns.ts";

const app = useAppScenario({ harness: { botLogin: "loupe-test[bot]" } });

describe("a review whose worker was stopped", () => {
  it("while fetching: the check run says worker_out_of_memory, and the model is never asked", async () => {
    const h = await app.start([], {
      ports: (real) => ({
        ...real,
        fetchWorkspace: async () => {
          throw new LoupeError("worker_out_of_memory", "stopped");
        },
      }),
    });
    const gh = mockReviewStart(app.fx);
    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
    await h.drain();
    const done = gh.completion();
    expect(done.conclusion).toBe("neutral");
    const output = done.output as { title: string; summary: string };
    expect(output.title).toBe("Loupe: review incomplete (worker_out_of_memory)");
    expect(output.summary).toContain(TERMINATION_SENTENCES.worker_out_of_memory);
    expect(app.provider.requests).toEqual([]);
    expect(gh.reviewsPosted()).toEqual([]);
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("while planning: worker_timeout with the loop's figures, and no review is posted", async () => {
    const h = await app.start([{ body: stopTurn(review([finding({ line: 2 })])) }], {
      ports: (real) => ({
        ...real,
        planReview: async () => {
          throw new LoupeError("worker_timeout", "stopped");
        },
      }),
    });
    const gh = mockHistory(mockReviewStart(app.fx));
    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
    await h.drain();
    const done = gh.completion();
    expect(done.conclusion).toBe("neutral");
    const output = done.output as { title: string; summary: string };
    expect(output.title).toBe("Loupe: review incomplete (worker_timeout)");
    expect(output.summary).toContain(TERMINATION_SENTENCES.worker_timeout);
    expect(app.provider.requests).toHaveLength(1);
    expect(gh.reviewsPosted()).toEqual([]);
    expect(h.logs().some((line) => line.includes('"termination_reason":"worker_timeout"'))).toBe(true);
    expectCleanEnd(h, app.provider, [gh]);
  });
});
