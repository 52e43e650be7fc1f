// The review's time limit (REVIEW_TIMEOUT_MS) counted from its start, before the first git read:
// a repository can make reading its trees slow (a tree bomb, a slow server), and time spent there
// is the review's as much as the model's. The deadline is two things: an instant on the review's
// clock, from which the loops get what is left, and a signal that fires then (or on the caller's
// cancellation) and stops the repository work where it is. A caller that reads git before the
// pipeline does (the CLI's local host opens the repository on its first question) starts it
// itself and hands it in; otherwise the pipeline starts it as the review begins.

import { LoupeError } from "../domain/errors.ts";
import { TERMINATION_SENTENCES } from "../domain/outcome.ts";

export interface ReviewDeadline {
  /** The instant the review must end, on the review's clock (ReviewRun.now). */
  readonly at: number;
  /** Fires at the deadline, or when the caller's signal does. */
  readonly signal: AbortSignal;
  /** True once the deadline itself (not a cancellation) has fired. */
  passed(): boolean;
}

export function startReviewDeadline(input: {
  readonly timeoutMs: number;
  readonly now: () => number;
  /** The caller's cancellation (a queue's, an interrupt). */
  readonly signal: AbortSignal;
}): ReviewDeadline {
  const timeout = AbortSignal.timeout(input.timeoutMs);
  const at = input.now() + input.timeoutMs;
  return {
    at,
    signal: AbortSignal.any([input.signal, timeout]),
    passed: () => timeout.aborted || input.now() >= at,
  };
}

/** The time a review has left for its loops, at most its own limit; 0 once the deadline passed. */
export function timeLeftMs(deadline: ReviewDeadline, timeoutMs: number, now: () => number): number {
  return Math.max(0, Math.min(timeoutMs, deadline.at - now()));
}

/**
 * The deadline met while a host read the repository before the pull request was known (the CLI's
 * local host): no review can carry a termination reason yet, so an error names it.
 */
export function timedOutReading(cause: unknown): LoupeError {
  return new LoupeError(
    "git_timeout",
    `review_timeout: ${TERMINATION_SENTENCES.review_timeout} Reading the repository was stopped.`,
    { cause },
  );
}
