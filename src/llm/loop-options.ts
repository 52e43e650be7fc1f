// The loop's inputs, and the two values it keeps while it runs: how it ends, and the repair
// round in flight.

import type { ToolCallMode } from "../config/provider-config.ts";
import type { ReviewLimits } from "../config/review-limits.ts";
import type { TerminationReason } from "../outcome.ts";
import type { ToolRegistry } from "../tools/types.ts";
import type { RepositoryView } from "../workspace/types.ts";
import type { FindingFileCheck } from "./final-review.ts";
import type { ReviewPromptInput } from "./prompt.ts";
import type { ChatMessage, ChatProvider, ProviderFailureDetail } from "./provider.ts";
import type { FinalReview, RepairRound, RoundProgress } from "./types.ts";

export interface ReviewLoopOptions {
  provider: ChatProvider;
  tools: ToolRegistry;
  view: RepositoryView;
  model: string;
  prompt: ReviewPromptInput;
  limits: ReviewLimits;
  includeTrace: boolean;
  signal?: AbortSignal;
  onRound?: (progress: RoundProgress) => void | Promise<void>;
  now?: () => number;
  /** Finding path check; defaults to the read tool's own rules against the head commit. */
  checkFindingFile?: FindingFileCheck;
  /** native (default here; the operator's default is auto, see provider-config), text or auto. */
  toolCalls?: ToolCallMode;
}

export interface Ending {
  reason: TerminationReason;
  review?: FinalReview;
  retryAfterSeconds?: number;
  validationFailures?: readonly string[];
  providerFailure?: ProviderFailureDetail;
}

/** The repair round in flight: the history it extends and the reason the review ends if it fails. */
export interface PendingRepair {
  readonly history: ChatMessage[];
  readonly record: RepairRound;
  readonly fallback: TerminationReason;
}
