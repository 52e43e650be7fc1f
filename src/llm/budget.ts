// Which budget the next round would break, predicted before it is sent, so that the loop can
// spend that round asking for the final answer instead of throwing the work away.

import type { ReviewLimits } from "../config/review-limits.ts";
import type { TerminationReason } from "../domain/outcome.ts";

/** A budget stop. "tool_content" ends as invalid_model_response (the protocol's wording). */
export type BudgetStop = "max_rounds" | "max_tool_calls" | "token_budget" | "review_timeout" | "tool_content";

export interface BudgetState {
  readonly roundsDone: number;
  readonly toolCalls: number;
  readonly totalTokens: number;
  /** total_tokens of the last round: the next prompt is at least that large (it only grows). */
  readonly lastRoundTokens: number;
  readonly longestRoundMs: number;
  readonly now: number;
  readonly deadline: number;
}

export function nextRoundBudget(state: BudgetState, limits: ReviewLimits): BudgetStop | null {
  // The last allowed round is itself the final-answer round: a review never sends more than
  // maxRounds requests.
  if (state.roundsDone + 1 >= limits.maxRounds) return "max_rounds";
  if (state.toolCalls >= limits.maxToolCalls) return "max_tool_calls";
  if (state.roundsDone > 0 && state.totalTokens + state.lastRoundTokens > limits.maxTokens)
    return "token_budget";
  // Two more rounds of the slowest kind seen so far must fit: this one and the final answer.
  if (state.roundsDone > 0 && state.deadline - state.now < 2 * state.longestRoundMs) return "review_timeout";
  return null;
}

/** Whether the one repair round still fits: a round left, its tokens, and time for one round. */
export function repairRoundBudget(state: BudgetState, limits: ReviewLimits): BudgetStop | null {
  if (state.roundsDone >= limits.maxRounds) return "max_rounds";
  if (state.totalTokens + state.lastRoundTokens > limits.maxTokens) return "token_budget";
  if (state.deadline - state.now < state.longestRoundMs) return "review_timeout";
  return null;
}

export function budgetReason(stop: BudgetStop): TerminationReason {
  return stop === "tool_content" ? "invalid_model_response" : stop;
}

/**
 * Errors return no partial trace (a protocol rule, docs/loop.md). Budget stops are not errors: the work done is real
 * and the check run shows it, so their partial trace is returned.
 */
export function isErrorReason(reason: TerminationReason): boolean {
  return !["final_review", "max_rounds", "max_tool_calls", "token_budget", "review_timeout"].includes(reason);
}
