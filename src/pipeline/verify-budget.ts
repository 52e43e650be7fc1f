// What one verification may spend: a small slice (a thread reply's default budget), bounded by
// what the review has left of its rounds, tool calls, tokens and time. The review's loop and every
// verification so far count against the same budgets, so the pass can never take a review past
// them; when too little is left for a useful check, the rest of the findings go unverified.

import { DEFAULT_REPLY_BUDGET } from "../config/reply-limits.ts";
import type { ReviewLimits } from "../config/review-limits.ts";
import type { LoopRecord } from "../llm/types.ts";
import { type LoopBudget, withinGrant } from "./pass-budget.ts";

/** One round to read the code and one for the verdict: less cannot check anything. */
const MIN_ROUNDS = 2;

export function verifyBudget(
  limits: ReviewLimits,
  /** The budget's grant when it is less than the review's own token budget; null: no cap. */
  maxTokens: number | null,
  spent: Pick<LoopRecord, "rounds" | "tool_calls" | "duration_ms" | "usage">,
): LoopBudget | null {
  const tokens = withinGrant(limits, maxTokens).maxTokens;
  const left = {
    maxRounds: limits.maxRounds - spent.rounds,
    maxToolCalls: limits.maxToolCalls - spent.tool_calls,
    maxTokens: tokens - spent.usage.total_tokens,
    timeoutMs: limits.timeoutMs - spent.duration_ms,
  };
  if (left.maxRounds < MIN_ROUNDS || left.maxToolCalls < 1 || left.maxTokens < 1 || left.timeoutMs < 1)
    return null;
  return {
    maxRounds: Math.min(DEFAULT_REPLY_BUDGET.maxRounds, left.maxRounds),
    maxToolCalls: Math.min(DEFAULT_REPLY_BUDGET.maxToolCalls, left.maxToolCalls),
    maxTokens: Math.min(DEFAULT_REPLY_BUDGET.maxTokens, left.maxTokens),
    timeoutMs: Math.min(DEFAULT_REPLY_BUDGET.timeoutMs, left.timeoutMs),
  };
}
