// The review queue a process runs: its own in memory, or with REDIS_URL the fleet's on Redis. Both
// keep the same per-pull-request rules (test/integration/jobs/queue-contract.test.ts) and take the same
// runner; a job that leaves the line without running has its queued check run cancelled.

import type { CancelReason } from "../domain/cancel-reason.ts";
import type { ReviewRequest } from "../domain/review-request.ts";
import { createReviewQueue } from "../jobs/queue.ts";
import type { JobRunner, ReviewQueue } from "../jobs/review-queue.ts";
import { errorDetail } from "../log/error-detail.ts";
import type { Logger } from "../log/job-logger.ts";
import type { DependencyState } from "../metrics/dependency-state.ts";
import type { Fleet } from "./fleet.ts";
import type { FleetTiming } from "./fleet-timing.ts";

export interface ReviewQueueChoice {
  /** REDIS_URL's fleet, or null for the single process. */
  readonly fleet: Fleet | null;
  readonly concurrency: number;
  readonly runner: JobRunner;
  readonly log: Logger;
  /** Makes the `queued` check run of a request that has to wait; its id, or null. */
  readonly announce: (request: ReviewRequest) => Promise<number | null>;
  /** Completes a queued check run `cancelled` when its request leaves without running. */
  readonly cancel: (request: ReviewRequest, checkRunId: number, reason: CancelReason) => Promise<void>;
  readonly fleetTiming?: Partial<FleetTiming>;
  /** Redis's state, shared by the process's queues. */
  readonly redisHealth?: DependencyState;
}

export function reviewQueueFor(choice: ReviewQueueChoice): ReviewQueue {
  if (choice.fleet === null) {
    return createReviewQueue({
      concurrency: choice.concurrency,
      runner: choice.runner,
      onRunnerError: (error) => choice.log.error({ error: errorDetail(error) }, "review job failed"),
      onWaiting: choice.announce,
      log: choice.log,
      onDropped: async (job, reason) => {
        if (job.checkRun !== null) await choice.cancel(job.request, job.checkRun.id, reason);
      },
    });
  }
  return choice.fleet.redis.createRedisQueue({
    redisUrl: choice.fleet.redisUrl,
    concurrency: choice.concurrency,
    runner: choice.runner,
    log: choice.log,
    announce: choice.announce,
    cancel: choice.cancel,
    ...(choice.fleetTiming ? { timing: choice.fleetTiming } : {}),
    ...(choice.redisHealth ? { redisHealth: choice.redisHealth } : {}),
  });
}
