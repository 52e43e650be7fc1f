// The operator's budgets for one review. Every value has a default and a hard cap in the schema;
// a value that is not an integer within them is an error line naming the variable.

import * as v from "valibot";
import { choiceVar, integerVar } from "./env-fields.ts";

const MIB = 1024 * 1024;

export const DEFAULT_REVIEW_LIMITS = Object.freeze({
  maxRounds: 8,
  maxToolCallsPerRound: 8,
  maxToolCalls: 32,
  timeoutMs: 300_000,
  maxTokens: 500_000,
  maxToolContentBytes: MIB,
  maxResponseBytes: 2 * MIB,
  tracePreviewBytes: 4096,
  maxFetchBytes: 1024 * MIB,
  /** Each finding is checked again by a separate loop before it is posted (docs/verification.md). */
  verify: true,
  /** Finder passes over the change, each from its own angle (1: one plain review). */
  finderPasses: 1,
});

export const HARD_CAPS = Object.freeze({
  maxRounds: 32,
  maxToolCallsPerRound: 32,
  maxToolCalls: 256,
  timeoutMs: 1_800_000,
  maxTokens: 5_000_000,
  maxToolContentBytes: 8 * MIB,
  maxResponseBytes: 8 * MIB,
  tracePreviewBytes: 4096,
  maxFetchBytes: 8192 * MIB,
  /** One a finder angle (llm/finder-angles.ts has this many). */
  finderPasses: 3,
});

type Limit = Exclude<keyof typeof DEFAULT_REVIEW_LIMITS, "tracePreviewBytes" | "verify">;
const limit = (name: string, key: Limit) => integerVar(name, 1, HARD_CAPS[key], DEFAULT_REVIEW_LIMITS[key]);

/** One provider response body: the provider's reader bounds it too. */
export const REVIEW_MAX_RESPONSE_BYTES = limit("REVIEW_MAX_RESPONSE_BYTES", "maxResponseBytes");

export const ReviewLimitsSchema = v.pipe(
  v.object({
    REVIEW_MAX_ROUNDS: limit("REVIEW_MAX_ROUNDS", "maxRounds"),
    REVIEW_MAX_TOOL_CALLS_PER_ROUND: limit("REVIEW_MAX_TOOL_CALLS_PER_ROUND", "maxToolCallsPerRound"),
    REVIEW_MAX_TOOL_CALLS: limit("REVIEW_MAX_TOOL_CALLS", "maxToolCalls"),
    REVIEW_TIMEOUT_MS: limit("REVIEW_TIMEOUT_MS", "timeoutMs"),
    REVIEW_MAX_TOKENS: limit("REVIEW_MAX_TOKENS", "maxTokens"),
    REVIEW_MAX_TOOL_CONTENT_BYTES: limit("REVIEW_MAX_TOOL_CONTENT_BYTES", "maxToolContentBytes"),
    REVIEW_MAX_RESPONSE_BYTES,
    REVIEW_MAX_FETCH_BYTES: limit("REVIEW_MAX_FETCH_BYTES", "maxFetchBytes"),
    REVIEW_VERIFY: choiceVar("REVIEW_VERIFY", ["on", "off"], "on"),
    REVIEW_FINDER_PASSES: limit("REVIEW_FINDER_PASSES", "finderPasses"),
  }),
  v.transform((env) => ({
    /** Provider requests per review, the final-answer round included. */
    maxRounds: env.REVIEW_MAX_ROUNDS,
    maxToolCallsPerRound: env.REVIEW_MAX_TOOL_CALLS_PER_ROUND,
    maxToolCalls: env.REVIEW_MAX_TOOL_CALLS,
    /** Whole review, from its start (before the first git read) to the validated final review. */
    timeoutMs: env.REVIEW_TIMEOUT_MS,
    /** Sum of the provider's reported total_tokens over all rounds. */
    maxTokens: env.REVIEW_MAX_TOKENS,
    /** Sum of the tool messages' content bytes sent back to the model. */
    maxToolContentBytes: env.REVIEW_MAX_TOOL_CONTENT_BYTES,
    /** One provider HTTP response body. */
    maxResponseBytes: env.REVIEW_MAX_RESPONSE_BYTES,
    /** Each trace preview (UTF-8 bytes): fixed by the protocol, at most 4 KiB. */
    tracePreviewBytes: DEFAULT_REVIEW_LIMITS.tracePreviewBytes,
    /** Bytes the git server may send for the review's two commits (bounds its disk use and time). */
    maxFetchBytes: env.REVIEW_MAX_FETCH_BYTES,
    /** The verification pass over the review's findings, shares these budgets. */
    verify: env.REVIEW_VERIFY === "on",
    /** Finder passes from different angles (finder-angles.ts), deduplicated before verification. */
    finderPasses: env.REVIEW_FINDER_PASSES,
  })),
);

export type ReviewLimits = v.InferOutput<typeof ReviewLimitsSchema>;
