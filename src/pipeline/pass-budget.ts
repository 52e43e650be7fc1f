// How the review's budget is shared when its change is reviewed in passes. Rounds, tool calls,
// tokens and time are the review's totals, as for one loop (tokens also within what the
// installation's budget granted). Each pass gets an equal share of what is left when it starts:
// what is left divided by the passes still to run. A pass that finishes early leaves its unused
// share to the later ones, and no pass can take what the later ones need. A pass needs at least
// two rounds (read the diff, answer) and one tool call, so the budget affords at most
// min(rounds / 2, tool calls) passes; files past those are reported as not reviewed.

import type { ReviewLimits } from "../config/review-limits.ts";
import type { LoopResult } from "../llm/types.ts";

export type LoopBudget = Pick<ReviewLimits, "maxRounds" | "maxToolCalls" | "maxTokens" | "timeoutMs">;

export const MIN_ROUNDS_PER_PASS = 2;

export interface PassUse {
  readonly rounds: number;
  readonly toolCalls: number;
  readonly tokens: number;
  readonly elapsedMs: number;
}

export function passesAffordable(budget: LoopBudget): number {
  return Math.max(1, Math.min(Math.floor(budget.maxRounds / MIN_ROUNDS_PER_PASS), budget.maxToolCalls));
}

/** The next pass's share; null when too little is left for a pass to do anything. */
export function passShare(total: LoopBudget, used: PassUse, passesLeft: number): LoopBudget | null {
  const share = (left: number) => Math.floor(Math.max(0, left) / Math.max(1, passesLeft));
  const next = {
    maxRounds: share(total.maxRounds - used.rounds),
    maxToolCalls: share(total.maxToolCalls - used.toolCalls),
    maxTokens: share(total.maxTokens - used.tokens),
    timeoutMs: share(total.timeoutMs - used.elapsedMs),
  };
  const enough =
    next.maxRounds >= MIN_ROUNDS_PER_PASS &&
    next.maxToolCalls >= 1 &&
    next.maxTokens >= 1 &&
    next.timeoutMs >= 1;
  return enough ? next : null;
}

/** What loops that already ran used of a shared budget. */
export function usedBy(ran: readonly LoopResult[], elapsedMs: number): PassUse {
  return {
    rounds: ran.reduce((sum, r) => sum + r.rounds, 0),
    toolCalls: ran.reduce((sum, r) => sum + r.tool_calls, 0),
    tokens: ran.reduce((sum, r) => sum + r.usage.total_tokens, 0),
    elapsedMs,
  };
}

/** The review's budget within what the installation's budget granted (null: no grant, no cap). */
export function withinGrant<B extends LoopBudget>(limits: B, grantedTokens: number | null): B {
  return grantedTokens === null
    ? limits
    : { ...limits, maxTokens: Math.min(limits.maxTokens, grantedTokens) };
}
