// The one runner of loops that share the review's budget one after another: each gets what the
// earlier ones left divided by the loops still to run, a loop its share cannot pay for is skipped
// or ends the sequence as the caller says, and an ending that dooms the later loops stops it.

import { describe, expect, it } from "@jest/globals";
import type { LoopResult } from "../../../src/llm/types.ts";
import { runLoopSequence } from "../../../src/pipeline/loop-sequence.ts";
import type { LoopLimits } from "../../../src/pipeline/pass-share.ts";

const TOTAL: LoopLimits = { maxRounds: 8, maxToolCalls: 32, maxTokens: 90_000, timeoutMs: 300_000 };

function used(tokens: number, reason: LoopResult["termination_reason"] = "final_review"): LoopResult {
  return {
    termination_reason: reason,
    usage: { prompt_tokens: tokens, completion_tokens: 0, total_tokens: tokens },
    spend: {
      rounds: 1,
      input_tokens: tokens,
      cached_input_tokens: 0,
      output_tokens: 0,
      provider_dollars: null,
    },
    rounds: 1,
    tool_calls: 0,
    duration_ms: 1,
    trace: [],
    review: null,
  };
}

/** Runs the sequence with loops that use `spent[i]` tokens; returns the shares they were given. */
async function shares(options: {
  readonly spent: readonly number[];
  readonly needs?: (index: number) => number;
  readonly unpaid: "skip" | "stop";
  readonly reasons?: readonly LoopResult["termination_reason"][];
  /** The milliseconds each loop takes. */
  readonly ms?: readonly number[];
}) {
  let clock = 0;
  const given: (number | undefined)[] = options.spent.map(() => undefined);
  const outcome = await runLoopSequence({
    total: TOTAL,
    count: options.spent.length,
    ...(options.needs === undefined ? {} : { needs: options.needs }),
    unpaid: options.unpaid,
    now: () => clock,
    run: async (i, share) => {
      given[i] = share.maxTokens;
      clock += options.ms?.[i] ?? 0;
      return used(options.spent[i]!, options.reasons?.[i]);
    },
    resultOf: (result) => result,
  });
  return { given, stopped: outcome.stopped, ran: outcome.results.map((r) => r !== undefined) };
}

describe("runLoopSequence", () => {
  it("gives each loop what is left divided by the loops still to run", async () => {
    const { given, stopped } = await shares({ spent: [10_000, 30_000, 0], unpaid: "stop" });
    expect(given).toEqual([30_000, 40_000, 50_000]);
    expect(stopped).toBe(false);
  });

  it("skips a loop whose need its share cannot pay, and runs a lighter one after it", async () => {
    const needs = [80_000, 95_000, 1];
    const { given, ran } = await shares({ spent: [80_000, 0, 0], needs: (i) => needs[i]!, unpaid: "skip" });
    expect(ran).toEqual([true, false, true]);
    expect(given).toEqual([80_000, undefined, 10_000]);
  });

  it("ends at the first loop that cannot be paid when told to stop, where skipping would go on", async () => {
    // One millisecond left: half of it is no time at all, all of it is the last loop's.
    const first = { spent: [1, 1, 1], ms: [299_999] };
    expect((await shares({ ...first, unpaid: "stop" })).ran).toEqual([true, false, false]);
    expect((await shares({ ...first, unpaid: "skip" })).ran).toEqual([true, false, true]);
  });

  it("stops the later loops after an ending that dooms them", async () => {
    const { ran, stopped } = await shares({
      spent: [1, 1, 1],
      unpaid: "skip",
      reasons: ["final_review", "cancelled"],
    });
    expect(ran).toEqual([true, true, false]);
    expect(stopped).toBe(true);
  });
});
