// The tool loop's rounds as records, pure: what the fold over them counts (a refused request is no
// round but its time counts; a failed one is a round but sets no last-round tokens), which budget
// the last turn asked the final answer for, and the budget rules as predicates over the records.

import { describe, expect, it } from "@jest/globals";
import { DEFAULT_REVIEW_LIMITS } from "../../../src/config/review-limits.ts";
import { nextRoundLimit, repairRoundLimit } from "../../../src/llm/loop-limits.ts";
import {
  closeRound,
  NO_RESPONSE,
  type RoundResponse,
  requestedStop,
  tally,
} from "../../../src/llm/loop-rounds.ts";

const LIMITS = { ...DEFAULT_REVIEW_LIMITS, maxRounds: 4, maxToolCalls: 3, maxTokens: 1_000 };
const answered = (tokens: number, durationMs = 10): RoundResponse => ({
  durationMs,
  usage: { prompt_tokens: tokens - 1, completion_tokens: 1, total_tokens: tokens },
  spend: null,
  finishReason: "stop",
});
const clock = (msLeft: number) => ({ now: () => 0, deadline: msLeft });

describe("the rounds' tally", () => {
  it("counts rounds, calls, tokens and bytes sent, the last answered round and the slowest request", () => {
    const done = tally([
      closeRound(answered(100), "execute_tools", { toolCalls: 2, toolContentBytes: 50 }),
      closeRound(NO_RESPONSE(70), "refused"),
      closeRound(answered(300, 20), "request_final_answer", { toolCalls: 1, stop: "tool_content" }),
    ]);
    expect(done).toMatchObject({ rounds: 2, toolCalls: 3, toolContentBytes: 50, lastRoundTokens: 300 });
    expect(done.usage).toEqual({ prompt_tokens: 398, completion_tokens: 2, total_tokens: 400 });
    expect(done.longestRoundMs).toBe(70);
  });

  it("counts a failed request as a round that leaves the last round's tokens as they were", () => {
    const done = tally([closeRound(answered(100), "execute_tools"), closeRound(NO_RESPONSE(5), "failed")]);
    expect(done).toMatchObject({ rounds: 2, lastRoundTokens: 100 });
  });

  it("names the budget only while the last model turn asked for the final answer", () => {
    const asked = closeRound(answered(100), "request_final_answer", { stop: "max_tool_calls" });
    expect(requestedStop([asked])).toBe("max_tool_calls");
    expect(requestedStop([asked, closeRound(NO_RESPONSE(1), "refused")])).toBe("max_tool_calls");
    expect(requestedStop([asked, closeRound(answered(10), "terminate")])).toBeNull();
    expect(requestedStop([])).toBeNull();
  });
});

describe("the budget predicates over the rounds", () => {
  it("makes the last allowed round the final-answer round", () => {
    const three = [1, 2, 3].map(() => closeRound(answered(10), "execute_tools"));
    expect(nextRoundLimit(tally(three.slice(0, 2)), clock(1_000), LIMITS)).toBeNull();
    expect(nextRoundLimit(tally(three), clock(1_000), LIMITS)).toBe("max_rounds");
  });

  it("stops for calls, then tokens (the next prompt is at least the last round), then time for two rounds", () => {
    const calls = [closeRound(answered(10), "execute_tools", { toolCalls: 3 })];
    expect(nextRoundLimit(tally(calls), clock(1_000), LIMITS)).toBe("max_tool_calls");
    const tokens = [closeRound(answered(500), "execute_tools")];
    expect(nextRoundLimit(tally(tokens), clock(1_000), LIMITS)).toBeNull();
    const more = [...tokens, closeRound(answered(260), "execute_tools")];
    expect(nextRoundLimit(tally(more), clock(1_000), LIMITS)).toBe("token_budget");
    const slow = [closeRound(answered(10, 400), "execute_tools")];
    expect(nextRoundLimit(tally(slow), clock(800), LIMITS)).toBeNull();
    expect(nextRoundLimit(tally(slow), clock(799), LIMITS)).toBe("review_timeout");
  });

  it("lets the repair round in when a round, its tokens and time for one round are left", () => {
    const asked = [closeRound(answered(400, 300), "request_repair")];
    expect(repairRoundLimit(tally(asked), clock(300), LIMITS)).toBeNull();
    expect(repairRoundLimit(tally(asked), clock(299), LIMITS)).toBe("review_timeout");
    const heavy = [closeRound(answered(600), "request_repair")];
    expect(repairRoundLimit(tally(heavy), clock(1_000), LIMITS)).toBe("token_budget");
    const all = [1, 2, 3, 4].map(() => closeRound(answered(1), "execute_tools"));
    expect(repairRoundLimit(tally(all), clock(1_000), LIMITS)).toBe("max_rounds");
  });
});
