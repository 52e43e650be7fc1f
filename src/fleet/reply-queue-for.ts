// The queue of replies in Loupe's threads a process runs: its own in memory, or with REDIS_URL the
// fleet's on Redis, where one comment is answered once across replicas.

import { errorDetail } from "../log/error-detail.ts";
import type { Logger } from "../log/job-logger.ts";
import type { DependencyState } from "../metrics/dependency-state.ts";
import { createReplyQueue, type ReplyQueue, type ReplyRunner } from "../replies/reply-queue.ts";
import type { Fleet } from "./fleet.ts";
import type { FleetTiming } from "./fleet-timing.ts";

export interface ReplyQueueChoice {
  /** REDIS_URL's fleet, or null for the single process. */
  readonly fleet: Fleet | null;
  readonly concurrency: number;
  readonly runner: ReplyRunner;
  readonly log: Logger;
  readonly fleetTiming?: Partial<FleetTiming>;
  /** Redis's state, shared by the process's queues. */
  readonly redisHealth?: DependencyState;
}

export function replyQueueFor(choice: ReplyQueueChoice): ReplyQueue {
  if (choice.fleet === null) {
    return createReplyQueue({
      concurrency: choice.concurrency,
      runner: choice.runner,
      log: choice.log,
      onRunnerError: (error) => choice.log.error({ error: errorDetail(error) }, "reply job failed"),
      onDropped: (request) =>
        choice.log.warn(
          { pr: request.pullNumber, comment: request.replyCommentId },
          "reply dropped at shutdown",
        ),
    });
  }
  return choice.fleet.redis.createRedisReplyQueue({
    redisUrl: choice.fleet.redisUrl,
    concurrency: choice.concurrency,
    runner: choice.runner,
    log: choice.log,
    ...(choice.fleetTiming ? { timing: choice.fleetTiming } : {}),
    ...(choice.redisHealth ? { redisHealth: choice.redisHealth } : {}),
  });
}
