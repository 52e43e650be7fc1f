// The contract of the tool loop: what it needs from a provider and what it returns. The loop is
// pure over these ports, so it is tested with a scripted provider and an in-memory repository.

import type { FinalReview } from "../domain/finding.ts";
import type { TerminationReason } from "../domain/outcome.ts";
import type { Spend } from "../domain/spend.ts";
import type { Verification } from "../domain/verification.ts";
import type { ProviderFailureDetail } from "./provider.ts";
import type { ProviderWait } from "./provider-gate.ts";

export interface Usage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
}

export interface TraceToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: unknown;
  readonly ok: boolean;
  readonly result_preview: string;
  readonly result_bytes: number;
  readonly truncated: boolean;
  readonly duration_ms: number;
}

export interface TraceTurn {
  readonly round: number;
  readonly provider_request_id: string | null;
  readonly provider_model: string | null;
  readonly finish_reason: string | null;
  readonly protocol_action: string;
  readonly usage: Usage | null;
  readonly tool_calls: readonly TraceToolCall[];
  /** On a stop turn whose final review failed Loupe's checks: which ones (Loupe's own words). */
  readonly validation_failures?: readonly string[];
}

/**
 * The one repair request a review may send when its final review fails validation: why, and
 * what came of it. `repaired`: the corrected review passed. `failed`: it failed the checks again.
 * `not_a_review`: the answer was not a final review at all. `interrupted`: the provider failed,
 * time ran out or the review was cancelled during the repair. `not_sent`: no budget was left.
 */
export interface RepairRound {
  /** The round whose final review failed. */
  readonly failed_round: number;
  /** The checks it failed: what the repair request told the model. */
  readonly failures: readonly string[];
  readonly outcome: "repaired" | "failed" | "not_a_review" | "interrupted" | "not_sent";
  /** For not_sent: the budget that had no room for the repair round. */
  readonly budget?: string;
}

/** How a tool loop ran and ended, whatever its final answer. */
export interface LoopRecord {
  readonly termination_reason: TerminationReason;
  readonly usage: Usage;
  /** The usage as it is billed: what the review's cost is computed from. */
  readonly spend: Spend;
  readonly rounds: number;
  readonly tool_calls: number;
  readonly duration_ms: number;
  /** null when the trace is disabled, and when the review ended with an error (a protocol rule, docs/loop.md). */
  readonly trace: readonly TraceTurn[] | null;
  /** Seconds the provider asked to wait, for provider_rate_limited. */
  readonly retry_after_seconds?: number;
  /** Present when a final review failed validation: the repair round and its outcome. */
  readonly repair?: RepairRound;
  /** The checks the last final review failed when none passed (what was wrong, never dropped). */
  readonly validation_failures?: readonly string[];
  /** For provider_* reasons: the configured host and the HTTP status or network failure. */
  readonly provider_failure?: ProviderFailureDetail;
  /** How tool calls travelled at the end: native function calls or text markers. */
  readonly tool_call_transport?: "native" | "text";
  /** Set when auto mode switched from native calls to text markers, and why. */
  readonly tool_call_switch?: {
    readonly round: number;
    readonly cause: "provider_rejected_tools" | "marker_calls";
  };
}

/** A loop that ended with its final answer (for final_review) or without one. */
export interface ToolLoopResult<T> extends LoopRecord {
  readonly answer: T | null;
}

/** A review loop's result: the final review is the answer. */
export interface LoopResult extends LoopRecord {
  readonly review: FinalReview | null;
  /** Present when the verification pass ran over the review's findings (pipeline/verify-step.ts). */
  readonly verification?: Verification;
}

/** Progress reported after every round, so the check run can show it while the loop runs. */
export interface RoundProgress {
  readonly round: number;
  readonly maxRounds: number;
  readonly toolCalls: number;
  readonly totalTokens: number;
  /** The tokens so far, split as the provider reports them (what a stopped review still counts). */
  readonly usage: Usage;
  readonly spend: Spend;
  /** Set when the change is reviewed in passes: the round counts are this pass's. */
  readonly pass?: { readonly index: number; readonly count: number };
  /** Set while the next request waits for its share of the provider (a wait, not a failure). */
  readonly waiting?: ProviderWait;
}

/** What the loop did with a turn, as the trace names it. */
export type ProtocolAction =
  | "execute_tools"
  | "final_review"
  /** A budget was reached: this turn was not executed and a final-answer round follows. */
  | "request_final_answer"
  /** The final review failed validation: one repair request naming the failed checks follows. */
  | "request_repair"
  /** Text tool calls: prose without a marker got the one reminder; nothing ran. */
  | "remind_marker"
  /** Auto mode left native calls for text markers (the trace entry carries no provider turn). */
  | "switch_to_text_tool_calls"
  | "terminate";
