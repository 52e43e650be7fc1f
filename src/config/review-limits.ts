// The operator's budgets for one review. Every value has a default and a hard cap; a value that
// is not a positive integer, or is over its cap, is a configuration error (never a silent default).

import { readPositiveInteger } from "./env-integer.ts";

export interface ReviewLimits {
  /** Provider requests per review, the final-answer round included. */
  maxRounds: number;
  maxToolCallsPerRound: number;
  maxToolCalls: number;
  /** Whole review, from the first request to the validated final review. */
  timeoutMs: number;
  /** Sum of the provider's reported total_tokens over all rounds. */
  maxTokens: number;
  /** Sum of the tool messages' content bytes sent back to the model. */
  maxToolContentBytes: number;
  /** One provider HTTP response body. */
  maxResponseBytes: number;
  /** Each trace preview (UTF-8 bytes). */
  tracePreviewBytes: number;
  /** Bytes the git server may send for the review's two commits (bounds its disk use and time). */
  maxFetchBytes: number;
}

const MIB = 1024 * 1024;

export const DEFAULT_REVIEW_LIMITS: ReviewLimits = Object.freeze({
  maxRounds: 8,
  maxToolCallsPerRound: 8,
  maxToolCalls: 32,
  timeoutMs: 300_000,
  maxTokens: 500_000,
  maxToolContentBytes: MIB,
  maxResponseBytes: 2 * MIB,
  tracePreviewBytes: 4096,
  maxFetchBytes: 1024 * MIB,
});

export const HARD_CAPS: ReviewLimits = Object.freeze({
  maxRounds: 32,
  maxToolCallsPerRound: 32,
  maxToolCalls: 256,
  timeoutMs: 1_800_000,
  maxTokens: 5_000_000,
  maxToolContentBytes: 8 * MIB,
  maxResponseBytes: 8 * MIB,
  tracePreviewBytes: 4096,
  maxFetchBytes: 8192 * MIB,
});

/** Env var name per configurable limit (tracePreviewBytes is fixed by the protocol: ≤ 4 KiB). */
export const REVIEW_LIMIT_VARIABLES = {
  maxRounds: "REVIEW_MAX_ROUNDS",
  maxToolCallsPerRound: "REVIEW_MAX_TOOL_CALLS_PER_ROUND",
  maxToolCalls: "REVIEW_MAX_TOOL_CALLS",
  timeoutMs: "REVIEW_TIMEOUT_MS",
  maxTokens: "REVIEW_MAX_TOKENS",
  maxToolContentBytes: "REVIEW_MAX_TOOL_CONTENT_BYTES",
  maxResponseBytes: "REVIEW_MAX_RESPONSE_BYTES",
  maxFetchBytes: "REVIEW_MAX_FETCH_BYTES",
} as const satisfies Partial<Record<keyof ReviewLimits, string>>;

export function readReviewLimits(env: Readonly<Record<string, string | undefined>>): ReviewLimits {
  const read = (key: keyof typeof REVIEW_LIMIT_VARIABLES): number =>
    readPositiveInteger(env, REVIEW_LIMIT_VARIABLES[key], DEFAULT_REVIEW_LIMITS[key], HARD_CAPS[key]);
  return {
    maxRounds: read("maxRounds"),
    maxToolCallsPerRound: read("maxToolCallsPerRound"),
    maxToolCalls: read("maxToolCalls"),
    timeoutMs: read("timeoutMs"),
    maxTokens: read("maxTokens"),
    maxToolContentBytes: read("maxToolContentBytes"),
    maxResponseBytes: read("maxResponseBytes"),
    tracePreviewBytes: DEFAULT_REVIEW_LIMITS.tracePreviewBytes,
    maxFetchBytes: read("maxFetchBytes"),
  };
}
