// The one runner of loops that share the review's budget one after another: file passes over a
// large change (passes-step.ts) and finder passes (finder-step.ts). Before each loop it asks the
// pure rule (passShare, pass-share.ts) for that loop's share of what the loops before it left;
// it stops after a loop whose ending says later loops cannot succeed either (STOPS_LATER_LOOPS).
// Where the two differ, they say so: a file pass states the tokens it needs to read its diff, and
// a pass its share cannot pay for is skipped (a later, lighter one may still run), while finders
// need no more than their equal share and stop at the first that cannot be paid.
// Verification shares the same tokens and time differently (verify-step.ts, verify-limits.ts).

import { STOPS_LATER_LOOPS } from "../domain/outcome.ts";
import type { LoopResult } from "../llm/types.ts";
import { type LoopLimits, passShare, usedBy } from "./pass-share.ts";

export interface LoopSequence<R> {
  /** What the loops share: the review's tokens (within the grant) and time, and the per-loop bounds. */
  readonly total: LoopLimits;
  /** How many loops the plan has. */
  readonly count: number;
  /** The tokens loop `index` must spend at least (passTokensNeeded); absent: its equal share. */
  readonly needs?: (index: number) => number;
  /** A loop its share cannot pay for: "skip" it and try the next, or "stop" the sequence. */
  readonly unpaid: "skip" | "stop";
  readonly now: () => number;
  /** Runs loop `index` under `share`. */
  readonly run: (index: number, share: LoopLimits) => Promise<R>;
  /** The loop's result, whose usage counts against the shared tokens. */
  readonly resultOf: (ran: R) => LoopResult;
}

export interface SequenceOutcome<R> {
  /** By plan index; undefined for a loop not run. */
  readonly results: readonly (R | undefined)[];
  /** Set when a loop's ending stopped the ones after it. */
  readonly stopped: boolean;
}

export async function runLoopSequence<R>(sequence: LoopSequence<R>): Promise<SequenceOutcome<R>> {
  const { total, count, now } = sequence;
  const started = now();
  const results: (R | undefined)[] = Array.from({ length: count }, () => undefined);
  const ran: LoopResult[] = [];
  for (let index = 0; index < count; index++) {
    const need = sequence.needs?.(index);
    const share = passShare(total, usedBy(ran, now() - started), count - index, need);
    if (share === null) {
      if (sequence.unpaid === "stop") break;
      continue;
    }
    const outcome = await sequence.run(index, share);
    const result = sequence.resultOf(outcome);
    results[index] = outcome;
    ran.push(result);
    if (STOPS_LATER_LOOPS.has(result.termination_reason)) return { results, stopped: true };
  }
  return { results, stopped: false };
}
