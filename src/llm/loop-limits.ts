// The loop's limits, as pure predicates over its recorded rounds (loop-rounds.ts) and the
// clock: what is left of each limit, and which limit the next round would break, predicted
// before it is sent, so that the loop can spend that round asking for the final answer instead of
// throwing the work away.

import type { ReviewLimits } from "../config/review-limits.ts";
import type { TerminationReason } from "../domain/outcome.ts";
import type { LimitStop, RoundsTally } from "./loop-rounds.ts";

export type { LimitStop } from "./loop-rounds.ts";

/**
 * The caller's clock (the review's, ReviewRun.now) and the instant on it by which a loop must end:
 * a loop's time is its caller's, wherever it runs.
 */
export interface LoopClock {
  readonly now: () => number;
  readonly deadline: number;
}

/**
 * A stop rule: the limit the next round would break, read from the rounds so far and the clock, or
 * null. The loop's caller composes its rules (ToolLoopOptions.stopWhen); before each round the
 * loop asks them in order, and the first that answers makes that round the final-answer round.
 */
export type StopRule = (done: RoundsTally, clock: LoopClock, limits: ReviewLimits) => LimitStop | null;

/** The last allowed round is itself the final-answer round: a loop never sends more than maxRounds. */
export const lastRound: StopRule = (done, _, limits) =>
  done.rounds + 1 >= limits.maxRounds ? "max_rounds" : null;
export const callsUsed: StopRule = (done, _, limits) =>
  done.toolCalls >= limits.maxToolCalls ? "max_tool_calls" : null;
/** The next prompt is at least as large as the last round's whole use. */
export const tokensShort: StopRule = (done, _, limits) =>
  done.rounds > 0 && tokensLeft(done, limits) < done.lastRoundTokens ? "token_budget" : null;
/** Two more rounds of the slowest kind seen so far must fit: this one and the final answer. */
export const timeShort: StopRule = (done, clock) =>
  done.rounds > 0 && clock.deadline - clock.now() < 2 * done.longestRoundMs ? "review_timeout" : null;

/** The protocol's limits, in its order: what a loop stops on unless its caller composes others. */
export const PROTOCOL_STOPS: readonly StopRule[] = [lastRound, callsUsed, tokensShort, timeShort];

/** Which limit makes the next round the final-answer round, or null when a normal round fits. */
export function nextRoundLimit(
  done: RoundsTally,
  clock: LoopClock,
  limits: ReviewLimits,
  rules: readonly StopRule[] = PROTOCOL_STOPS,
): LimitStop | null {
  return rules.reduce<LimitStop | null>((stop, rule) => stop ?? rule(done, clock, limits), null);
}

/** Whether the one repair round still fits: a round left, its tokens, and time for one round. */
export function repairRoundLimit(
  done: RoundsTally,
  clock: LoopClock,
  limits: ReviewLimits,
): LimitStop | null {
  if (done.rounds >= limits.maxRounds) return "max_rounds";
  if (tokensLeft(done, limits) < done.lastRoundTokens) return "token_budget";
  return clock.deadline - clock.now() < done.longestRoundMs ? "review_timeout" : null;
}

const tokensLeft = (done: RoundsTally, limits: ReviewLimits) => limits.maxTokens - done.usage.total_tokens;

export function limitReason(stop: LimitStop): TerminationReason {
  return stop === "tool_content" ? "invalid_model_response" : stop;
}

/**
 * Errors return no partial trace (a protocol rule, docs/loop.md). Budget stops are not errors: the work done is real
 * and the check run shows it, so their partial trace is returned.
 */
export function isErrorReason(reason: TerminationReason): boolean {
  return !["final_review", "max_rounds", "max_tool_calls", "token_budget", "review_timeout"].includes(reason);
}
