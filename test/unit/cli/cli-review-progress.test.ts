// The progress `loupe review` prints on a terminal, on a clock the test moves: the silence notice
// while the provider has not answered, reset by each answered round, and nothing after stop().

import { describe, expect, it } from "@jest/globals";
import { startReviewProgress } from "../../../src/cli/review-progress.ts";
import { NO_SPEND } from "../../../src/domain/spend.ts";

describe("loupe review's progress", () => {
  it("says how long the provider has been silent, from the last answer, until stopped", () => {
    let now = 1_000_000;
    let tick: (() => void) | null = null;
    const out: string[] = [];
    const progress = startReviewProgress(
      (text) => out.push(text),
      { host: "llm.example:8080", model: "m", timeoutMs: 300_000 },
      {
        now: () => now,
        repeat: (fn) => {
          tick = fn;
          return () => {
            tick = null;
          };
        },
      },
    );
    now += 15_000;
    tick!();
    const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
    progress.onRound({ round: 1, maxRounds: 8, toolCalls: 2, totalTokens: 2, usage, spend: NO_SPEND });
    now += 30_000;
    tick!();
    progress.stop();
    expect(tick).toBeNull();
    expect(out).toEqual([
      "loupe: reviewing with m at llm.example:8080 (time limit 300 s)\n",
      "loupe: waiting for llm.example:8080: no answer in 15 s\n",
      "loupe: round 1 of at most 8 answered · 2 tool calls so far · 2 tokens\n",
      "loupe: waiting for llm.example:8080: no answer in 30 s\n",
    ]);
  });
});
