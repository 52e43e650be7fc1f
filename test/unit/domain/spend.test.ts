// A review's spend read from providers' usage objects, and priced: cached prompt tokens apart,
// the provider's own cost winning, and an unpriced review said to be unpriced, never $0.

import { describe, expect, it } from "@jest/globals";
import { addSpend, costOf, describeCost, NO_SPEND, readSpend } from "../../../src/domain/spend.ts";

const PRICES = { input: 3, cachedInput: 0.3, output: 15 };

describe("readSpend", () => {
  it("splits OpenAI's cached prompt tokens out of the input", () => {
    const spend = readSpend({
      prompt_tokens: 1000,
      completion_tokens: 50,
      total_tokens: 1050,
      prompt_tokens_details: { cached_tokens: 800 },
    });
    expect(spend).toEqual({
      rounds: 1,
      input_tokens: 200,
      cached_input_tokens: 800,
      output_tokens: 50,
      provider_dollars: null,
    });
  });

  it("reads a reported cost, and ignores broken ones", () => {
    expect(readSpend({ prompt_tokens: 10, completion_tokens: 1, cost: 0.0021 })?.provider_dollars).toBe(
      0.0021,
    );
    for (const cost of [-1, "0.1", Number.NaN, 1e12, null]) {
      expect(readSpend({ prompt_tokens: 10, completion_tokens: 1, cost })?.provider_dollars).toBeNull();
    }
  });

  it("never counts more cached tokens than prompt tokens, and refuses what is not usage", () => {
    expect(
      readSpend({ prompt_tokens: 5, completion_tokens: 0, prompt_tokens_details: { cached_tokens: 99 } }),
    ).toMatchObject({ input_tokens: 0, cached_input_tokens: 5 });
    for (const usage of [null, [], "x", {}, { prompt_tokens: -1 }, { prompt_tokens: 1.5 }]) {
      expect(readSpend(usage)).toBeNull();
    }
  });
});

describe("costOf", () => {
  const round = readSpend({
    prompt_tokens: 1_000_000,
    completion_tokens: 100_000,
    prompt_tokens_details: { cached_tokens: 500_000 },
  })!;

  it("prices input, cached input and output apart", () => {
    // 0.5M × $3 + 0.5M × $0.30 + 0.1M × $15
    expect(costOf(round, PRICES)).toEqual({ kind: "priced", dollars: 1.5 + 0.15 + 1.5 });
  });

  it("says unpriced, not $0, when tokens were spent and nothing prices them", () => {
    const cost = costOf(round, null);
    expect(cost).toEqual({ kind: "unpriced" });
    expect(describeCost(cost)).toMatch(/^unknown \(no prices set/);
  });

  it("says unknown without prices even when no round reported a spend (a provider that failed)", () => {
    expect(costOf(NO_SPEND, null)).toEqual({ kind: "unpriced" });
    expect(describeCost(costOf(NO_SPEND, null))).toMatch(/^unknown \(no prices set/);
    expect(describeCost(costOf(NO_SPEND, PRICES))).toBe("$0.00");
  });

  it("takes the provider's figure only when every round reported one", () => {
    const reported = readSpend({ prompt_tokens: 10, completion_tokens: 1, cost: 0.25 })!;
    expect(costOf(addSpend(addSpend(NO_SPEND, reported), reported), PRICES)).toEqual({
      kind: "reported",
      dollars: 0.5,
    });
    const mixed = addSpend(reported, round);
    expect(mixed.provider_dollars).toBeNull();
    expect(costOf(mixed, PRICES).kind).toBe("priced");
    expect(describeCost({ kind: "reported", dollars: 0.5 })).toBe("$0.50 (reported by the provider)");
  });
});
