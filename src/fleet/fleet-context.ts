// What the fleet review queue's parts share: its options and clocks, its Redis connections, the
// BullMQ queue, the per-pull-request state and the announcements, the jobs this replica runs, and
// the background steps it still owes (made check runs, cancelled ones), which drain waits for.

import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { type CancelReason, isCancelReason } from "../domain/cancel-reason.ts";
import type { ReviewRequest } from "../domain/review-request.ts";
import type { KnownRun } from "../jobs/review-job.ts";
import type { JobRunner } from "../jobs/review-queue.ts";
import { errorDetail } from "../log/error-detail.ts";
import type { JobLogger } from "../log/job-logger.ts";
import type { DependencyState } from "../metrics/dependency-state.ts";
import { type Announcements, createAnnouncements } from "./announcement.ts";
import { DEFAULT_FLEET_TIMING, type FleetTiming, REVIEW_QUEUE_NAME } from "./fleet-timing.ts";
import { createPrState, type PrState } from "./pr-state.ts";
import { redisHealthOr, watchRedis } from "./redis-health.ts";

export interface RedisQueueOptions {
  readonly redisUrl: string;
  /** Reviews this replica runs at once. */
  readonly concurrency: number;
  readonly runner: JobRunner;
  readonly log: JobLogger;
  /** Makes the `queued` check run for a job; its id, or null. */
  readonly announce: (request: ReviewRequest) => Promise<number | null>;
  /** Completes a job's check run `cancelled` when the job leaves without running. */
  readonly cancel: (request: ReviewRequest, checkRunId: number, reason: CancelReason) => Promise<void>;
  /** The BullMQ queue's name (one per Loupe deployment sharing a Redis). */
  readonly queueName?: string;
  /** Timings, shortened by tests; the defaults are documented in docs/deploy.md, "Scale out". */
  readonly timing?: Partial<FleetTiming>;
  /** Redis's state, shared by the process's queues (one line when it goes, when it is back). */
  readonly redisHealth?: DependencyState;
}

export interface StoredJob {
  readonly request: ReviewRequest;
  /** The run the job opened (stored as soon as it is open, so a takeover reuses it). */
  readonly checkRun: KnownRun | null;
}

export interface Running {
  readonly done: Promise<unknown>;
}

/** A reason as BullMQ's `cancelJob` carries it (a string), and back for the job's own signal. */
export const encodeReason = (reason: CancelReason): string => JSON.stringify(reason);

export function decodeReason(value: unknown): CancelReason | null {
  try {
    const reason: unknown = typeof value === "string" ? JSON.parse(value) : null;
    return isCancelReason(reason) ? reason : null;
  } catch {
    return null;
  }
}

export interface FleetContext {
  readonly options: RedisQueueOptions;
  readonly timing: FleetTiming;
  readonly name: string;
  readonly prefix: string;
  readonly log: JobLogger;
  /** Where Redis is, as the 503 names it (no credentials). */
  readonly redisAddress: string;
  readonly producer: Redis;
  readonly workerConnection: Redis;
  readonly subscriber: Redis;
  /** Redis's state: connection and BullMQ errors are told to it, not each logged. */
  readonly health: DependencyState;
  readonly queue: Queue<StoredJob>;
  readonly acceptState: PrState;
  readonly workState: PrState;
  readonly announcements: Announcements;
  readonly abortChannel: string;
  readonly running: Map<string, Running>;
  readonly background: Set<Promise<unknown>>;
  /** Runs a step after the webhook is answered; failures are logged, drain waits for it. */
  track(work: Promise<unknown>): void;
}

/** host:port of a redis:// URL, without its user or password. */
export function redisAddress(redisUrl: string): string {
  try {
    const url = new URL(redisUrl);
    return `${url.hostname}:${url.port || "6379"}`;
  } catch {
    return "REDIS_URL";
  }
}

export function createFleetContext(options: RedisQueueOptions): FleetContext {
  const timing = { ...DEFAULT_FLEET_TIMING, ...options.timing };
  const name = options.queueName ?? REVIEW_QUEUE_NAME;
  const prefix = `loupe:${name}:`;
  const { log } = options;
  // Webhooks must fail fast when Redis is away (no offline queue), so GitHub gets a 503 in time.
  const producer = new Redis(options.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  // The worker side waits out a Redis restart instead (BullMQ requires maxRetriesPerRequest null).
  const workerConnection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const subscriber = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const health = redisHealthOr(options.redisHealth, log);
  const queue = new Queue<StoredJob>(name, { connection: producer });
  watchRedis(health, [producer, workerConnection, subscriber], [queue]);
  const background = new Set<Promise<unknown>>();
  return {
    ...{ options, timing, name, prefix, log, producer, workerConnection, subscriber, background, health },
    redisAddress: redisAddress(options.redisUrl),
    queue,
    acceptState: createPrState(producer, { prefix, leaseMs: timing.leaseMs }),
    workState: createPrState(workerConnection, { prefix, leaseMs: timing.leaseMs }),
    announcements: createAnnouncements(workerConnection, { prefix, claimMs: timing.lockMs }),
    abortChannel: `${prefix}abort`,
    running: new Map(),
    track: (work) => {
      const settled = work.catch((error: unknown) =>
        log.warn({ error: errorDetail(error) }, "fleet background step failed"),
      );
      background.add(settled);
      void settled.finally(() => background.delete(settled));
    },
  };
}
