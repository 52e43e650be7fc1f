// How one review ends, as a value: the App turns it into a check run, the CLI into its output and
// exit code. Infrastructure faults (GitHub down, a broken workspace) are thrown by the pipeline;
// a caller that must still report them (the App's check run) records them as `failed`.

import type { AppliedSettings } from "../config/settings-layers.ts";
import { type CancelReason, isCancelReason } from "../domain/cancel-reason.ts";
import type { ReviewCoverage } from "../domain/coverage.ts";
import type { Cost } from "../domain/spend.ts";
import type { Guidance } from "../guidance/types.ts";
import type { LoopResult } from "../llm/types.ts";
import type { PlannedReview } from "./review-ports.ts";

export type SkipCode =
  | "closed"
  | "disabled"
  | "draft"
  | "bot_author"
  | "too_many_files"
  | "no_changes"
  | "no_files"
  | "repository_too_large"
  | "auto_review_off"
  | "author_not_allowed"
  | "budget_reached"
  | "paused";

export interface ConfigError {
  /** The layer's file the error is in (the organisation's or the repository's); absent: the repository's. */
  readonly file?: string;
  readonly layer?: "organisation" | "repository";
  readonly path: string;
  readonly message: string;
}

export type ReviewOutcome =
  | {
      readonly kind: "skipped";
      readonly code: SkipCode;
      readonly detail: string;
      /** Whether a queue may treat the head as reviewed (a draft skip is not: ready_for_review follows). */
      readonly remember: boolean;
      /** The settings' layers, when the skip came after they were read. */
      readonly settings?: AppliedSettings;
    }
  | { readonly kind: "config_invalid"; readonly errors: readonly ConfigError[] }
  | { readonly kind: "cancelled"; readonly reason: CancelReason }
  /** An infrastructure fault the pipeline threw, as its caller records it. */
  | { readonly kind: "failed"; readonly error: unknown }
  | ReviewedOutcome;

export interface ReviewedOutcome {
  readonly kind: "reviewed";
  readonly result: LoopResult;
  /** What the loop's spend cost, by the provider's figure or the operator's prices, or unknown. */
  readonly cost: Cost;
  /** null when the loop returned no valid review. */
  readonly plan: PlannedReview | null;
  readonly headSha: string;
  readonly filesReviewed: number;
  readonly filesSkipped: number;
  readonly guidance: Guidance;
  /** Which settings layers applied, the keys each set, and the directory rules with their files. */
  readonly settings?: AppliedSettings;
  /** Sentences for the check run: the scope, the guidance, where findings went, what failed. */
  readonly notes: readonly string[];
  /** The review could not be published: the outcome is incomplete and not remembered. */
  readonly publishFailed: boolean;
  /** What became of findings in this review (absent when nothing was published). */
  readonly findingEvents?: FindingEvents;
  /** Present when the change was reviewed in passes: what each covered, and what none did. */
  readonly coverage?: ReviewCoverage;
}

/**
 * Findings this review posted for the first time, and Loupe's own threads it resolved because
 * their finding no longer applies: with the replies' withdrawals and dismissals, a production
 * signal of how often Loupe's findings hold (loupe_findings_total).
 */
export interface FindingEvents {
  readonly posted: number;
  readonly fixed: number;
}

export function skipped(code: SkipCode, detail: string, remember = true): ReviewOutcome {
  return { kind: "skipped", code, detail, remember };
}

/** The cancellation a queue asked for (superseded, shutdown, hand-back), or null when none was. */
export function cancellation(signal: AbortSignal): ReviewOutcome | null {
  return signal.aborted && isCancelReason(signal.reason)
    ? { kind: "cancelled", reason: signal.reason }
    : null;
}
