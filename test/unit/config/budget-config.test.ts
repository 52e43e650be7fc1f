// The operator's spend settings: prices set together, dollar caps only with prices, the hard
// factor's default and range, and one line naming the variable for every bad value.

import { describe, expect, it } from "@jest/globals";
import { SpendSchema } from "../../../src/config/spend-config.ts";
import { settingsError, settingsErrors, settingsOf } from "../../support/settings.ts";

describe("the budget settings", () => {
  it("has no caps and no prices by default, and a hard factor of 1.5", () => {
    expect(settingsOf(SpendSchema, {})).toEqual({ caps: [], prices: null, hardFactor: 1.5 });
  });

  it("reads caps and prices; cached input is billed as input unless priced apart", () => {
    const settings = settingsOf(SpendSchema, {
      BUDGET_TOKENS_PER_DAY: "2000000",
      BUDGET_DOLLARS_PER_MONTH: "50",
      REVIEW_PRICE_INPUT: "0.27",
      REVIEW_PRICE_OUTPUT: "1.10",
      BUDGET_HARD_FACTOR: "2",
    });
    expect(settings.caps).toEqual([
      { scope: "installation", unit: "tokens", period: "day", limit: 2_000_000 },
      { scope: "installation", unit: "dollars", period: "month", limit: 50 },
    ]);
    expect(settings.prices).toEqual({ input: 0.27, cachedInput: 0.27, output: 1.1 });
    expect(settings.hardFactor).toBe(2);
  });

  it.each([
    [{ BUDGET_TOKENS_PER_DAY: "1.5" }, 'BUDGET_TOKENS_PER_DAY="1.5" is not a whole number of tokens above 0'],
    [{ BUDGET_TOKENS_PER_MONTH: "0" }, 'BUDGET_TOKENS_PER_MONTH="0" is not a whole number of tokens above 0'],
    [{ BUDGET_HARD_FACTOR: "0.5" }, 'BUDGET_HARD_FACTOR="0.5" is not a number from 1 to 10'],
    [{ REVIEW_PRICE_INPUT: "1" }, "REVIEW_PRICE_OUTPUT is missing: prices are set together"],
    [
      { REVIEW_PRICE_OUTPUT: "-1", REVIEW_PRICE_INPUT: "1" },
      'REVIEW_PRICE_OUTPUT="-1" is not dollars per million tokens',
    ],
    [{ BUDGET_DOLLARS_PER_DAY: "5" }, "BUDGET_DOLLARS_PER_DAY counts dollars, which needs prices"],
  ])("refuses %j with one line naming the variable", (env, message) => {
    expect(settingsError(SpendSchema, env)).toContain(message);
  });

  it("lists every problem at once", () => {
    expect(
      settingsErrors(SpendSchema, { BUDGET_TOKENS_PER_DAY: "x", BUDGET_HARD_FACTOR: "11" }),
    ).toHaveLength(2);
  });
});
