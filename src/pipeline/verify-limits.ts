// What one verification may spend. A verification is a loop of its own, so its rounds and tool
// calls are a thread reply's default budget (within the review's per-loop bounds); what it shares
// with the review's loop and the other verifications is the review's tokens (within the
// installation's grant) and its time. When too little of those is left for a useful check, the
// rest of the findings go unverified.
//
// Unlike passes and finders (loop-sequence.ts), which run one after another and split what is
// left among the loops still to run, verifications run VERIFY_CONCURRENCY at a time: a check's
// share is what is left, less what the checks in flight were promised, split equally over the
// lanes still free (equalShare, pass-share.ts), and its time is what is left of the review's
// deadline, since checks side by side spend the same wall time. Nor may a check take more than its
// share: a verification is capped by a thread reply's budget instead.

import { DEFAULT_REPLY_LIMITS } from "../config/reply-limits.ts";
import type { ReviewLimits } from "../config/review-limits.ts";
import type { LoopLimits } from "./pass-share.ts";

/** One round to read the code and one for the verdict: less cannot check anything. */
const MIN_ROUNDS = 2;
/** The verifier's prompt, the finding's code and a verdict: fewer tokens cannot check anything. */
export const MIN_VERIFY_TOKENS = 2_000;

/** What the review has left of what verifications share, after what is already promised. */
export interface SharedLeft {
  readonly tokens: number;
  readonly ms: number;
}

export function verifyLimits(limits: ReviewLimits, left: SharedLeft): LoopLimits | null {
  const maxRounds = Math.min(DEFAULT_REPLY_LIMITS.maxRounds, limits.maxRounds);
  const maxToolCalls = Math.min(DEFAULT_REPLY_LIMITS.maxToolCalls, limits.maxToolCalls);
  if (maxRounds < MIN_ROUNDS || left.tokens < MIN_VERIFY_TOKENS || left.ms < 1) return null;
  return {
    maxRounds,
    maxToolCalls,
    maxTokens: Math.min(DEFAULT_REPLY_LIMITS.maxTokens, left.tokens),
    timeoutMs: Math.min(DEFAULT_REPLY_LIMITS.timeoutMs, left.ms),
  };
}
