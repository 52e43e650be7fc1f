// The fleet's clocks and names, shared by its review and reply queues: how long a silent replica
// keeps its jobs, how often the workers look for stalled ones, a pull request's lease, how often a
// running job checks it was superseded, and how long a webhook waits for Redis.

export interface FleetTiming {
  /** A job's lock in BullMQ: a replica silent this long is taken for dead. */
  readonly lockMs: number;
  /** How often every worker looks for jobs whose lock expired. */
  readonly stalledIntervalMs: number;
  /** A pull request's lease in pr-state, renewed every leaseMs / 4. */
  readonly leaseMs: number;
  /** How often a running job checks whether it was superseded (the pub/sub fallback). */
  readonly pollMs: number;
  /** The longest a webhook waits for Redis before it is answered 503. */
  readonly enqueueTimeoutMs: number;
}

export const DEFAULT_FLEET_TIMING: FleetTiming = {
  lockMs: 30_000,
  stalledIntervalMs: 15_000,
  leaseMs: 60_000,
  pollMs: 3_000,
  enqueueTimeoutMs: 8_000,
};

/** The BullMQ queues' default names (the queue dashboard shows them too). */
export const REVIEW_QUEUE_NAME = "loupe-reviews";
export const REPLY_QUEUE_NAME = "loupe-replies";
