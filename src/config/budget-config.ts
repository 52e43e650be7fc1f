// The operator's spend settings: prices per million tokens (never guessed: without them a cost is
// "unknown"), the per-installation caps by day and month (UTC), and how far past them a review a
// person asked for may go. Read by one valibot schema; every error names its variable.

import * as v from "valibot";
import type { BudgetCap } from "../domain/budget.ts";
import { LoupeError } from "../domain/errors.ts";
import type { Prices } from "../domain/spend.ts";

export interface BudgetSettings {
  /** The installation's caps; empty when none is set. */
  readonly caps: readonly BudgetCap[];
  readonly prices: Prices | null;
  /** How far past the caps a review someone asked for may go (BUDGET_HARD_FACTOR). */
  readonly hardFactor: number;
}

/** An unset or blank variable is undefined; anything else must be a number in range. */
const amount = (check: v.GenericPipeItem<number>, message: string) =>
  v.pipe(
    v.optional(v.string()),
    v.transform((raw) => (raw === undefined || raw.trim() === "" ? undefined : Number(raw.trim()))),
    v.union([v.undefined(), v.pipe(v.number(message), v.finite(message), check)], message),
  );
const tokens = amount(
  v.check((n) => Number.isSafeInteger(n) && n > 0, "must be a whole number of tokens above 0"),
  "must be a whole number of tokens above 0",
);
const dollars = amount(
  v.gtValue(0, "must be a number of dollars above 0"),
  "must be a number of dollars above 0",
);
const price = amount(
  v.minValue(0, "must be dollars per million tokens, 0 or more"),
  "must be dollars per million tokens, 0 or more",
);

const BudgetEnv = v.object({
  BUDGET_TOKENS_PER_DAY: tokens,
  BUDGET_TOKENS_PER_MONTH: tokens,
  BUDGET_DOLLARS_PER_DAY: dollars,
  BUDGET_DOLLARS_PER_MONTH: dollars,
  BUDGET_HARD_FACTOR: amount(
    v.check((n) => n >= 1 && n <= 10, "must be from 1 to 10"),
    "must be from 1 to 10",
  ),
  REVIEW_PRICE_INPUT: price,
  REVIEW_PRICE_CACHED_INPUT: price,
  REVIEW_PRICE_OUTPUT: price,
});

export const DEFAULT_HARD_FACTOR = 1.5;

export function readBudgetSettings(env: Readonly<Record<string, string | undefined>>): BudgetSettings {
  const parsed = v.safeParse(BudgetEnv, env);
  if (!parsed.success) {
    const issue = parsed.issues[0]!;
    const name = String(issue.path?.[0]?.key ?? "a budget variable");
    throw new LoupeError("configuration_invalid", `${name} ${issue.message}`);
  }
  const e = parsed.output;
  const prices = readPrices(e.REVIEW_PRICE_INPUT, e.REVIEW_PRICE_CACHED_INPUT, e.REVIEW_PRICE_OUTPUT);
  const caps: BudgetCap[] = [];
  const add = (
    unit: BudgetCap["unit"],
    period: BudgetCap["period"],
    limit: number | undefined,
    name: string,
  ) => {
    if (limit === undefined) return;
    if (unit === "dollars" && prices === null) {
      throw new LoupeError(
        "configuration_invalid",
        `${name} counts dollars, which needs prices: set REVIEW_PRICE_INPUT and REVIEW_PRICE_OUTPUT (dollars per million tokens)`,
      );
    }
    caps.push({ scope: "installation", unit, period, limit });
  };
  add("tokens", "day", e.BUDGET_TOKENS_PER_DAY, "BUDGET_TOKENS_PER_DAY");
  add("tokens", "month", e.BUDGET_TOKENS_PER_MONTH, "BUDGET_TOKENS_PER_MONTH");
  add("dollars", "day", e.BUDGET_DOLLARS_PER_DAY, "BUDGET_DOLLARS_PER_DAY");
  add("dollars", "month", e.BUDGET_DOLLARS_PER_MONTH, "BUDGET_DOLLARS_PER_MONTH");
  return { caps, prices, hardFactor: e.BUDGET_HARD_FACTOR ?? DEFAULT_HARD_FACTOR };
}

function readPrices(
  input: number | undefined,
  cached: number | undefined,
  output: number | undefined,
): Prices | null {
  if (input === undefined && output === undefined && cached === undefined) return null;
  if (input === undefined || output === undefined) {
    const missing = input === undefined ? "REVIEW_PRICE_INPUT" : "REVIEW_PRICE_OUTPUT";
    throw new LoupeError(
      "configuration_invalid",
      `${missing} is needed too: prices are set together (dollars per million tokens)`,
    );
  }
  // A provider without a prompt cache bills cached input like any other input.
  return { input, cachedInput: cached ?? input, output };
}
