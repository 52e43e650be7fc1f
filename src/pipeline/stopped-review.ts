// A review whose repository work was stopped from outside: the worker thread doing it ran out of
// memory or past its deadline (src/isolation), while fetching, in the loop or while planning. The
// review still ends as a value — "reviewed", with the reason as its termination reason, the
// figures the last round reported and no review — so the check run is completed with a static
// sentence, the metrics count it, and nothing is published.

import { isLoupeError } from "../domain/errors.ts";
import { isWorkerStopReason, type TerminationReason, type WorkerStopReason } from "../domain/outcome.ts";
import { NO_SPEND, type Prices } from "../domain/spend.ts";
import type { LoopRecord, RoundProgress } from "../llm/types.ts";
import type { ReviewedOutcome } from "./review-outcome.ts";
import { type Prepared, reviewedFacts } from "./reviewed-facts.ts";

/** The reason, when a port's error says its worker was stopped; null for any other error. */
export function workerStopOf(error: unknown): WorkerStopReason | null {
  return isLoupeError(error) && isWorkerStopReason(error.code) ? error.code : null;
}

/** Runs a port's call; a worker stop becomes a value, any other error still throws. */
export async function unlessStopped<T>(
  call: () => Promise<T>,
): Promise<
  | { readonly kind: "done"; readonly value: T }
  | { readonly kind: "stopped"; readonly reason: WorkerStopReason }
> {
  try {
    return { kind: "done", value: await call() };
  } catch (error) {
    const reason = workerStopOf(error);
    if (reason === null) throw error;
    return { kind: "stopped", reason };
  }
}

/**
 * The loop's record of work stopped at `reason`: what the last round reported (nothing when no
 * round ran), and no trace (a stopped review is an error ending, which carries none).
 */
export function stoppedRecord(
  reason: TerminationReason,
  progress: RoundProgress | null,
  durationMs: number,
): LoopRecord {
  return {
    termination_reason: reason,
    usage: progress?.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    spend: progress?.spend ?? NO_SPEND,
    rounds: progress?.round ?? 0,
    tool_calls: progress?.toolCalls ?? 0,
    duration_ms: durationMs,
    trace: null,
  };
}

/** A review stopped before its loop ran (its worker stopped, its deadline passed): no spend, no review. */
export function stoppedBeforeLoop(
  prepared: Prepared,
  reason: TerminationReason,
  prices: Prices | null,
  guidanceNote: string,
): ReviewedOutcome {
  const result = { ...stoppedRecord(reason, null, 0), review: null };
  return {
    ...reviewedFacts(prepared, result, prices),
    plan: null,
    notes: [guidanceNote],
    publishFailed: false,
  };
}
