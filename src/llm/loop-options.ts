// The tool loop's inputs, and the two values it keeps while it runs: how it ends, and the repair
// round in flight.

import type { ToolCallMode } from "../config/provider-config.ts";
import type { ReviewLimits } from "../config/review-limits.ts";
import type { TerminationReason } from "../domain/outcome.ts";
import type { ToolRegistry } from "../tools/types.ts";
import type { FinalAnswer } from "./final-answer.ts";
import type { LoopClock, StopRule } from "./loop-limits.ts";
import type { ChatMessage, ChatProvider, ProviderFailureDetail } from "./provider.ts";
import type { RepairRound, RoundProgress } from "./types.ts";

export interface ToolLoopOptions<T> {
  provider: ChatProvider;
  tools: ToolRegistry;
  model: string;
  /** The first messages: the system rules with the answer's schema, then the data (untrusted). */
  messages: readonly ChatMessage[];
  /** What the loop must end with, and how it is checked. */
  answer: FinalAnswer<T>;
  limits: ReviewLimits;
  includeTrace: boolean;
  signal?: AbortSignal;
  onRound?: (progress: RoundProgress) => void | Promise<void>;
  /** The caller's clock and its deadline, when sooner than the loop's own limit; absent: the machine's. */
  clock?: LoopClock;
  /** What makes a round the final-answer round, in order (loop-limits.ts); absent: the protocol's. */
  stopWhen?: readonly StopRule[];
  /** native (default here; the operator's default is auto, see provider-config), text or auto. */
  toolCalls?: ToolCallMode;
}

export interface LoopEnding<T> {
  reason: TerminationReason;
  answer?: T;
  retryAfterSeconds?: number;
  validationFailures?: readonly string[];
  providerFailure?: ProviderFailureDetail;
}

/** The repair round in flight: the history it extends and the reason the review ends if it fails. */
export interface PendingRepair {
  readonly history: readonly ChatMessage[];
  readonly record: RepairRound;
  readonly fallback: TerminationReason;
}
