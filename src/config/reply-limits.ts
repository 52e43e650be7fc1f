// The operator's budgets for one reply in a review thread. A reply answers one question about one
// finding, so its defaults are a fraction of a review's; every value has a hard cap in the schema.
// The per-round, content and response bounds are the review's own (app-settings.ts joins them).

import * as v from "valibot";
import { integerVar } from "./env-fields.ts";

export const DEFAULT_REPLY_LIMITS = Object.freeze({
  maxRounds: 4,
  maxToolCalls: 8,
  maxTokens: 100_000,
  timeoutMs: 120_000,
});

export const REPLY_HARD_CAPS = Object.freeze({
  maxRounds: 16,
  maxToolCalls: 64,
  maxTokens: 1_000_000,
  timeoutMs: 600_000,
});

type Limit = keyof typeof DEFAULT_REPLY_LIMITS;
const limit = (name: string, key: Limit) =>
  integerVar(name, 1, REPLY_HARD_CAPS[key], DEFAULT_REPLY_LIMITS[key]);

export const ReplyLimitsSchema = v.pipe(
  v.object({
    REPLY_MAX_ROUNDS: limit("REPLY_MAX_ROUNDS", "maxRounds"),
    REPLY_MAX_TOOL_CALLS: limit("REPLY_MAX_TOOL_CALLS", "maxToolCalls"),
    REPLY_MAX_TOKENS: limit("REPLY_MAX_TOKENS", "maxTokens"),
    REPLY_TIMEOUT_MS: limit("REPLY_TIMEOUT_MS", "timeoutMs"),
  }),
  v.transform((env) => ({
    maxRounds: env.REPLY_MAX_ROUNDS,
    maxToolCalls: env.REPLY_MAX_TOOL_CALLS,
    maxTokens: env.REPLY_MAX_TOKENS,
    timeoutMs: env.REPLY_TIMEOUT_MS,
  })),
);
