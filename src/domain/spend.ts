// What a review spent at its model provider, split the way providers bill it: input tokens read
// afresh, input tokens served from the provider's prompt cache (billed lower), and output tokens;
// plus the dollars the provider itself reported, when it reports them (OpenRouter's `usage.cost`).
// Prices are the operator's, never guessed: with none set and no reported cost, a review's cost is
// unknown, and is said to be, rather than shown as $0.

import { ENVIRONMENT_NAMES, type SettingNames } from "./setting-names.ts";

/** Snake case like the loop record that carries it (the CLI prints both as one JSON object). */
export interface Spend {
  /** Rounds whose answer reported usage. */
  readonly rounds: number;
  /** Prompt tokens not served from the provider's cache. */
  readonly input_tokens: number;
  readonly cached_input_tokens: number;
  readonly output_tokens: number;
  /** The provider's own figure, summed; null once any round with usage did not report one. */
  readonly provider_dollars: number | null;
}

/** Dollars per million tokens, as the operator's provider bills them. */
export interface Prices {
  readonly input: number;
  readonly cachedInput: number;
  readonly output: number;
}

export type Cost =
  | { readonly kind: "reported"; readonly dollars: number }
  | { readonly kind: "priced"; readonly dollars: number }
  | { readonly kind: "unpriced" };

export const NO_SPEND: Spend = {
  rounds: 0,
  input_tokens: 0,
  cached_input_tokens: 0,
  output_tokens: 0,
  provider_dollars: 0,
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const count = (value: unknown): number | null =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : null;

/** A bound on a reported cost: anything larger is a broken field, not a bill. */
const MAX_REPORTED_DOLLARS = 1_000_000;

/** One answer's `usage` object (untrusted: anything malformed counts as absent). */
export function readSpend(usage: unknown): Spend | null {
  if (!isRecord(usage)) return null;
  const prompt = count(usage.prompt_tokens);
  const output = count(usage.completion_tokens);
  if (prompt === null && output === null) return null;
  const details = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const cached = Math.min(count(details.cached_tokens) ?? 0, prompt ?? 0);
  const cost = usage.cost;
  const dollars =
    typeof cost === "number" && Number.isFinite(cost) && cost >= 0 && cost <= MAX_REPORTED_DOLLARS
      ? cost
      : null;
  return {
    rounds: 1,
    input_tokens: (prompt ?? 0) - cached,
    cached_input_tokens: cached,
    output_tokens: output ?? 0,
    provider_dollars: dollars,
  };
}

export function addSpend(a: Spend, b: Spend): Spend {
  return {
    rounds: a.rounds + b.rounds,
    input_tokens: a.input_tokens + b.input_tokens,
    cached_input_tokens: a.cached_input_tokens + b.cached_input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    provider_dollars:
      a.provider_dollars === null || b.provider_dollars === null
        ? null
        : a.provider_dollars + b.provider_dollars,
  };
}

/**
 * The provider's own figure when every round reported one, else the operator's prices, else
 * unknown — also when no round reported anything: a request that failed may still have been
 * billed, so without prices nothing is shown as $0 (docs/cost-and-budgets.md).
 */
export function costOf(spend: Spend, prices: Prices | null): Cost {
  if (spend.rounds > 0 && spend.provider_dollars !== null)
    return { kind: "reported", dollars: spend.provider_dollars };
  if (prices === null) return { kind: "unpriced" };
  const dollars =
    (spend.input_tokens * prices.input +
      spend.cached_input_tokens * prices.cachedInput +
      spend.output_tokens * prices.output) /
    1_000_000;
  return { kind: "priced", dollars };
}

/** `$0.0123`, or what is missing (named as the reader sets prices): shown wherever a review's cost is. */
export function describeCost(cost: Cost, names: SettingNames = ENVIRONMENT_NAMES): string {
  if (cost.kind === "unpriced")
    return `unknown (no prices set: ${names("REVIEW_PRICE_INPUT")}, ${names("REVIEW_PRICE_OUTPUT")})`;
  const shown = cost.dollars >= 1 ? cost.dollars.toFixed(2) : cost.dollars.toPrecision(2);
  return `$${cost.dollars === 0 ? "0.00" : shown}${cost.kind === "reported" ? " (reported by the provider)" : ""}`;
}

/** `Cost: $0.0123 — 1,200 input (800 cached) and 60 output tokens.` for check runs and logs. */
export function describeSpend(spend: Spend, cost: Cost, names: SettingNames = ENVIRONMENT_NAMES): string {
  const n = (value: number) => value.toLocaleString("en-US");
  const input = spend.input_tokens + spend.cached_input_tokens;
  const cached = spend.cached_input_tokens > 0 ? ` (${n(spend.cached_input_tokens)} cached)` : "";
  return `Cost: ${describeCost(cost, names)} — ${n(input)} input${cached} and ${n(spend.output_tokens)} output tokens.`;
}

/** Dollars, when known: what logs and metrics record. */
export function dollarsOf(cost: Cost): number | null {
  return cost.kind === "unpriced" ? null : cost.dollars;
}
