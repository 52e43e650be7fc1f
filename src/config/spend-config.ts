// The operator's spend settings: prices per million tokens (never guessed: without them a cost is
// "unknown"), the per-installation caps by day and month (UTC), the cap per pull request across
// its pushes, and how far past them a review a person asked for may go. One area of the settings schema (app-settings.ts); every error line
// names its variable and the fix.

import * as v from "valibot";
import { type BudgetCap, capsOf } from "../domain/budget.ts";
import type { Prices } from "../domain/spend.ts";
import { shown } from "./env-fields.ts";

const numberText = (name: string, ok: (n: number) => boolean, expected: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.check(
      (text) => text !== "" && ok(Number(text)),
      (issue) => `${name}=${shown(issue.input)} is not ${expected}: set one, or unset ${name}`,
    ),
    v.transform(Number),
  );
/** An unset variable is undefined; anything else must be a number that passes `ok`. */
const numberVar = (name: string, ok: (n: number) => boolean, expected: string) =>
  v.optional(numberText(name, ok, expected));
const tokens = (name: string) =>
  numberVar(name, (n) => Number.isSafeInteger(n) && n > 0, "a whole number of tokens above 0");
const dollars = (name: string) =>
  numberVar(name, (n) => Number.isFinite(n) && n > 0, "a number of dollars above 0 (e.g. 5 or 0.50)");
const price = (name: string) =>
  numberVar(name, (n) => Number.isFinite(n) && n >= 0, "dollars per million tokens (e.g. 0.15), 0 or more");

export const DEFAULT_HARD_FACTOR = 1.5;
const PRICES_NEEDED = "set REVIEW_PRICE_INPUT and REVIEW_PRICE_OUTPUT (dollars per million tokens)";

export const SpendSchema = v.pipe(
  v.object({
    BUDGET_TOKENS_PER_DAY: tokens("BUDGET_TOKENS_PER_DAY"),
    BUDGET_TOKENS_PER_MONTH: tokens("BUDGET_TOKENS_PER_MONTH"),
    BUDGET_DOLLARS_PER_DAY: dollars("BUDGET_DOLLARS_PER_DAY"),
    BUDGET_DOLLARS_PER_MONTH: dollars("BUDGET_DOLLARS_PER_MONTH"),
    BUDGET_TOKENS_PER_PULL_REQUEST: tokens("BUDGET_TOKENS_PER_PULL_REQUEST"),
    BUDGET_DOLLARS_PER_PULL_REQUEST: dollars("BUDGET_DOLLARS_PER_PULL_REQUEST"),
    BUDGET_HARD_FACTOR: v.optional(
      numberText("BUDGET_HARD_FACTOR", (n) => n >= 1 && n <= 10, "a number from 1 to 10"),
      String(DEFAULT_HARD_FACTOR),
    ),
    BUDGET_REPOSITORY_SHARE: numberVar(
      "BUDGET_REPOSITORY_SHARE",
      (n) => Number.isFinite(n) && n > 0 && n <= 1,
      "a fraction above 0 and at most 1 (e.g. 0.25)",
    ),
    REVIEW_PRICE_INPUT: price("REVIEW_PRICE_INPUT"),
    REVIEW_PRICE_CACHED_INPUT: price("REVIEW_PRICE_CACHED_INPUT"),
    REVIEW_PRICE_OUTPUT: price("REVIEW_PRICE_OUTPUT"),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const e = dataset.value;
    const input = e.REVIEW_PRICE_INPUT !== undefined;
    const output = e.REVIEW_PRICE_OUTPUT !== undefined;
    if (input !== output || (e.REVIEW_PRICE_CACHED_INPUT !== undefined && !input)) {
      addIssue({
        message: `${input ? "REVIEW_PRICE_OUTPUT" : "REVIEW_PRICE_INPUT"} is missing: prices are set together, ${PRICES_NEEDED}`,
      });
    }
    const dollarCaps = [
      "BUDGET_DOLLARS_PER_DAY",
      "BUDGET_DOLLARS_PER_MONTH",
      "BUDGET_DOLLARS_PER_PULL_REQUEST",
    ] as const;
    for (const name of dollarCaps) {
      if (e[name] !== undefined && !(input && output))
        addIssue({ message: `${name} counts dollars, which needs prices: ${PRICES_NEEDED}` });
    }
  }),
  v.transform((e): SpendSettings => {
    const prices: Prices | null =
      e.REVIEW_PRICE_INPUT === undefined || e.REVIEW_PRICE_OUTPUT === undefined
        ? null
        : {
            input: e.REVIEW_PRICE_INPUT,
            // A provider without a prompt cache bills cached input like any other input.
            cachedInput: e.REVIEW_PRICE_CACHED_INPUT ?? e.REVIEW_PRICE_INPUT,
            output: e.REVIEW_PRICE_OUTPUT,
          };
    const caps = capsOf("installation", {
      tokens_per_day: e.BUDGET_TOKENS_PER_DAY,
      tokens_per_month: e.BUDGET_TOKENS_PER_MONTH,
      dollars_per_day: e.BUDGET_DOLLARS_PER_DAY,
      dollars_per_month: e.BUDGET_DOLLARS_PER_MONTH,
      tokens_per_pull_request: e.BUDGET_TOKENS_PER_PULL_REQUEST,
      dollars_per_pull_request: e.BUDGET_DOLLARS_PER_PULL_REQUEST,
    });
    return {
      caps,
      prices,
      hardFactor: e.BUDGET_HARD_FACTOR,
      ...(e.BUDGET_REPOSITORY_SHARE === undefined ? {} : { repositoryShare: e.BUDGET_REPOSITORY_SHARE }),
    };
  }),
);

export interface SpendSettings {
  /** The installation's caps, and each pull request's (scope `pull_request`); empty when none is set. */
  readonly caps: readonly BudgetCap[];
  readonly prices: Prices | null;
  /** How far past the caps a review someone asked for may go (BUDGET_HARD_FACTOR). */
  readonly hardFactor: number;
  /**
   * The most of each installation cap one repository may spend (BUDGET_REPOSITORY_SHARE, a
   * fraction); absent, any repository may spend the whole of it.
   */
  readonly repositoryShare?: number;
}
