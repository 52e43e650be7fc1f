// The per-pull-request rules of the review queue, once, as a pure decision both queues consult:
// the one process's queue over its maps (jobs/queue.ts), the fleet's over what Redis holds
// (fleet/pr-state.ts reads it, decides here, and applies the decision only if nothing changed).
// A delivery id counts once; the head already running or waiting is not queued twice; a reviewed
// head is not reviewed again unless a person asked (a re-run); a newer push supersedes the running
// review and replaces the waiting one; a re-run never displaces anything, it waits.

/** Why a request is not queued, by the rules (the queue may refuse for its own reasons too). */
export type PrRefusal = "duplicate_delivery" | "already_running" | "already_pending" | "already_reviewed";

/** What the queue knows of one pull request when a request for it arrives. */
export interface PrSnapshot {
  /** This delivery id was decided before (for this pull request). */
  readonly deliverySeen: boolean;
  /** The head of the review running now; null when none runs, or it is already superseded. */
  readonly runningSha: string | null;
  /** The head of the request waiting its turn, or null. */
  readonly waitingSha: string | null;
  /** The request's head was reviewed before. */
  readonly reviewed: boolean;
}

export type PrDecision =
  | { readonly outcome: PrRefusal }
  | {
      readonly outcome: "queued";
      /** Abort the running review: superseded by this head. */
      readonly abortRunning: boolean;
      /** Take the waiting request out of the line: replaced by this one. */
      readonly dropWaiting: boolean;
    };

export function decideReview(
  state: PrSnapshot,
  request: { readonly headSha: string; readonly rerun: boolean },
): PrDecision {
  if (state.deliverySeen) return { outcome: "duplicate_delivery" };
  if (state.runningSha === request.headSha) return { outcome: "already_running" };
  if (state.waitingSha === request.headSha) return { outcome: "already_pending" };
  if (!request.rerun && state.reviewed) return { outcome: "already_reviewed" };
  // A re-run never displaces a push: it waits, and the orchestrator re-reads the PR's head.
  if (request.rerun && state.waitingSha !== null) return { outcome: "already_pending" };
  return {
    outcome: "queued",
    abortRunning: !request.rerun && state.runningSha !== null,
    dropWaiting: state.waitingSha !== null,
  };
}
