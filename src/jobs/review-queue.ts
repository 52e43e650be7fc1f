// What the webhook handler and the server see of a review queue, whichever runs it: the one
// process's own queue (queue.ts), or the fleet's queue in Redis (src/fleet/). `enqueue` resolves
// once the request is safely taken (in memory, or durably in Redis) or refused with the reason;
// it rejects when the queue cannot take it at all (Redis unreachable), so the webhook is not
// acknowledged and GitHub keeps a failed delivery that can be redelivered.

import type { ReviewRequest } from "../domain/review-request.ts";
import type { KnownRun, ReviewJob } from "./review-job.ts";

/** What the runner reports back: `remember` marks the SHA as reviewed (skips for drafts do not). */
export interface JobSettlement {
  readonly remember: boolean;
}

/** `onCheckRun` hears of the job's check run once it is open (a shared queue stores it in the job). */
export type JobRunner = (
  job: ReviewJob,
  signal: AbortSignal,
  onCheckRun?: (run: KnownRun) => Promise<void>,
) => Promise<JobSettlement>;

export type EnqueueOutcome =
  | "queued"
  | "duplicate_delivery"
  | "already_running"
  | "already_pending"
  | "already_reviewed"
  | "shutting_down";

export interface ReviewQueue {
  enqueue(request: ReviewRequest): Promise<EnqueueOutcome>;
  /** Resolves when nothing runs, nothing waits, and every dropped request has been reported. */
  drain(): Promise<void>;
  /** Stops taking work; running jobs may finish for graceMs, then they are stopped. */
  shutdown(graceMs: number): Promise<void>;
  /** This process's share: the jobs it runs, and those waiting for it. */
  stats(): { readonly running: number; readonly pending: number };
  /** A shared queue's jobs not running yet, fleet-wide (read when /metrics is scraped). */
  queued?(): Promise<{ readonly waiting: number; readonly delayed: number }>;
  /** Whether the queue can take work now (a shared queue: its Redis connection is up). */
  isReady(): boolean;
}
