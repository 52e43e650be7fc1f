// The operator's budgets for one reply in a review thread. A reply answers one question about one
// finding, so its defaults are a fraction of a review's; every value has a hard cap, and a bad
// value is a configuration error naming the variable. The per-round, content and response bounds
// are the review's own.

import { readPositiveInteger } from "./env-integer.ts";
import type { ReviewLimits } from "./review-limits.ts";

type ReplyBudget = Pick<ReviewLimits, "maxRounds" | "maxToolCalls" | "maxTokens" | "timeoutMs">;

export const DEFAULT_REPLY_BUDGET: ReplyBudget = Object.freeze({
  maxRounds: 4,
  maxToolCalls: 8,
  maxTokens: 100_000,
  timeoutMs: 120_000,
});

export const REPLY_HARD_CAPS: ReplyBudget = Object.freeze({
  maxRounds: 16,
  maxToolCalls: 64,
  maxTokens: 1_000_000,
  timeoutMs: 600_000,
});

export const REPLY_LIMIT_VARIABLES = {
  maxRounds: "REPLY_MAX_ROUNDS",
  maxToolCalls: "REPLY_MAX_TOOL_CALLS",
  maxTokens: "REPLY_MAX_TOKENS",
  timeoutMs: "REPLY_TIMEOUT_MS",
} as const satisfies Record<keyof ReplyBudget, string>;

export function readReplyLimits(
  env: Readonly<Record<string, string | undefined>>,
  review: ReviewLimits,
): ReviewLimits {
  const read = (key: keyof ReplyBudget): number =>
    readPositiveInteger(env, REPLY_LIMIT_VARIABLES[key], DEFAULT_REPLY_BUDGET[key], REPLY_HARD_CAPS[key]);
  return {
    ...review,
    maxRounds: read("maxRounds"),
    maxToolCalls: read("maxToolCalls"),
    maxTokens: read("maxTokens"),
    timeoutMs: read("timeoutMs"),
  };
}
