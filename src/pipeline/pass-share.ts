// How the review's budget is shared when it runs several loops (passes over a large change, finder
// passes). Each loop is a whole tool loop under the protocol's per-loop bounds: its rounds and tool
// calls are the operator's, whoever else runs. What the loops share is the review's tokens (within
// what the installation's budget granted) and its time: each loop gets an equal share of what is
// left when it starts — what is left divided by the loops still to run — so a loop that finishes
// early leaves its unused share to the later ones, and no loop can take what the later ones need.
// A loop that needs more than its equal share to read its diff and answer may take it from what is
// left; one that cannot be paid for at all is not started. loop-sequence.ts runs loops by this
// rule. Verification splits the same tokens and time by the same equal share, but over the checks
// in flight at once rather than the loops still to run (verify-limits.ts says why).

import type { ReviewLimits } from "../config/review-limits.ts";
import type { LoopResult } from "../llm/types.ts";

export type LoopLimits = Pick<ReviewLimits, "maxRounds" | "maxToolCalls" | "maxTokens" | "timeoutMs">;

export interface PassUse {
  readonly tokens: number;
  readonly elapsedMs: number;
}

/**
 * The next loop's budget; null when too little is left for it to do anything. `needTokens`: what
 * the loop must spend at least to read what it is shown and answer (passTokensNeeded).
 */
export function passShare(
  total: LoopLimits,
  used: PassUse,
  passesLeft: number,
  needTokens = 1,
): LoopLimits | null {
  const tokensLeft = total.maxTokens - used.tokens;
  const msLeft = total.timeoutMs - used.elapsedMs;
  const share = (left: number) => equalShare(left, passesLeft);
  const next = {
    maxRounds: total.maxRounds,
    maxToolCalls: total.maxToolCalls,
    maxTokens: Math.max(share(tokensLeft), needTokens),
    timeoutMs: share(msLeft),
  };
  return next.maxTokens <= tokensLeft && next.maxTokens >= 1 && next.timeoutMs >= 1 ? next : null;
}

/** An equal share of what is left among `ways` takers (none when nothing is left). */
export function equalShare(left: number, ways: number): number {
  return Math.floor(Math.max(0, left) / Math.max(1, ways));
}

/** The system prompt, the tools' schemas and the file list, re-sent with every round. */
const PROMPT_TOKENS = 6_000;
/** A final review with a few findings. */
const ANSWER_TOKENS = 2_000;
/** Bytes of diff per token, as tokenizers count code. */
const BYTES_PER_TOKEN = 4;

/**
 * The least a loop spends to read `shownBytes` of diff and answer: the diff comes back in one
 * round and is sent again with the answer's, with the prompt each time.
 */
export function passTokensNeeded(shownBytes: number): number {
  return 2 * (PROMPT_TOKENS + Math.ceil(shownBytes / BYTES_PER_TOKEN)) + ANSWER_TOKENS;
}

/** What loops that already ran used of a shared budget. */
export function usedBy(ran: readonly LoopResult[], elapsedMs: number): PassUse {
  return { tokens: ran.reduce((sum, r) => sum + r.usage.total_tokens, 0), elapsedMs };
}

/** The review's budget within what the installation's budget granted (null: no grant, no cap). */
export function withinGrant<B extends LoopLimits>(limits: B, grantedTokens: number | null): B {
  return grantedTokens === null
    ? limits
    : { ...limits, maxTokens: Math.min(limits.maxTokens, grantedTokens) };
}
