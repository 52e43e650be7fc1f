// The contract of the tool loop: what it needs from a provider and what it returns. The loop is
// pure over these ports, so it is tested with a scripted provider and an in-memory repository.

import type { TerminationReason } from "../outcome.ts";

export type Severity = "critical" | "high" | "medium" | "low" | "info";

export interface Finding {
  readonly severity: Severity;
  readonly title: string;
  readonly explanation: string;
  readonly path: string;
  readonly line: number | null;
  readonly end_line?: number | null;
  readonly evidence: string;
  readonly recommendation: string;
  readonly suggestion?: string | null;
}

export interface FinalReview {
  readonly summary: string;
  readonly findings: readonly Finding[];
  readonly notes: readonly string[];
}

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
}

export interface LoopResult {
  readonly termination_reason: TerminationReason;
  readonly review: FinalReview | null;
  readonly usage: Usage;
  readonly rounds: number;
  readonly tool_calls: number;
  readonly duration_ms: number;
  /** null when the trace is disabled, and when the review ended with an error (seed rule). */
  readonly trace: readonly TraceTurn[] | null;
  /** Seconds the provider asked to wait, for provider_rate_limited. */
  readonly retry_after_seconds?: number;
}

/** Progress reported after every round, so the check run can show it while the loop runs. */
export interface RoundProgress {
  readonly round: number;
  readonly maxRounds: number;
  readonly toolCalls: number;
  readonly totalTokens: number;
}
