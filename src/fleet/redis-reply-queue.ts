// The fleet's reply queue: BullMQ on Redis (REDIS_URL), shared by every replica like the review
// queue, but with none of its per-pull-request rules: a reply is one job per comment. The job id is
// the comment's, so a webhook redelivered to another replica finds the job already there. A killed
// replica's reply is found by BullMQ's stalled-job check and run again elsewhere; a reply it had
// already posted is seen by its reply-to marker (locate-reply.ts), so nobody is answered twice. On
// shutdown, replies still running after the grace period are handed back to the queue.

import { Queue, WaitingError, Worker } from "bullmq";
import { Redis } from "ioredis";
import { isCancelReason } from "../domain/cancel-reason.ts";
import { QueueUnavailableError, withinMs } from "../jobs/queue-unavailable.ts";
import { shutDown } from "../jobs/shutdown.ts";
import { errorDetail } from "../log/error-detail.ts";
import type { JobLogger } from "../log/job-logger.ts";
import type { DependencyState } from "../metrics/dependency-state.ts";
import type { ThreadReplyRequest } from "../replies/handle-comment.ts";
import type { ReplyEnqueueOutcome, ReplyQueue, ReplyRunner } from "../replies/reply-queue.ts";
import { redisAddress } from "./fleet-context.ts";
import { type FleetTiming, REPLY_QUEUE_NAME } from "./fleet-timing.ts";
import { redisHealthOr, watchRedis } from "./redis-health.ts";
import { storedRequest } from "./stored-request.ts";

export interface RedisReplyQueueOptions {
  readonly redisUrl: string;
  readonly concurrency: number;
  readonly runner: ReplyRunner;
  readonly log: JobLogger;
  readonly queueName?: string;
  readonly timing?: Partial<Pick<FleetTiming, "lockMs" | "stalledIntervalMs" | "enqueueTimeoutMs">>;
  /** Redis's state, shared by the process's queues. */
  readonly redisHealth?: DependencyState;
}

export function createRedisReplyQueue(options: RedisReplyQueueOptions): ReplyQueue {
  const timing = { lockMs: 30_000, stalledIntervalMs: 15_000, enqueueTimeoutMs: 8_000, ...options.timing };
  const name = options.queueName ?? REPLY_QUEUE_NAME;
  const { log } = options;
  // As for reviews: webhooks fail fast while Redis is away (503), workers wait it out.
  const producer = new Redis(options.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  const workerConnection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue<ThreadReplyRequest>(name, { connection: producer });
  const running = new Map<string, AbortController>();
  const idleWaiters: (() => void)[] = [];

  const worker = new Worker<ThreadReplyRequest>(
    name,
    async (job, token) => {
      const controller = new AbortController();
      running.set(job.id!, controller);
      try {
        await options.runner(storedRequest(job.data), controller.signal);
        const { reason } = controller.signal;
        if (controller.signal.aborted && isCancelReason(reason) && reason.kind === "handback") {
          await job.moveToWait(token); // the next replica answers it
          throw new WaitingError();
        }
      } finally {
        running.delete(job.id!);
        if (running.size === 0) for (const resolve of idleWaiters.splice(0)) resolve();
      }
    },
    {
      connection: workerConnection,
      concurrency: options.concurrency,
      lockDuration: timing.lockMs,
      stalledInterval: timing.stalledIntervalMs,
      maxStalledCount: 2,
    },
  );
  watchRedis(redisHealthOr(options.redisHealth, log), [producer, workerConnection], [queue, worker]);
  worker.on("failed", (job, error) =>
    log.warn({ comment: job?.data.replyCommentId ?? null, error: errorDetail(error) }, "fleet reply failed"),
  );
  const idle = () =>
    running.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve));

  return {
    async enqueue(request): Promise<ReplyEnqueueOutcome> {
      const jobId = `reply-${request.replyCommentId}`;
      try {
        return await withinMs(timing.enqueueTimeoutMs, async () => {
          if (producer.status !== "ready") await new Promise((resolve) => producer.once("ready", resolve));
          if ((await queue.getJob(jobId)) !== undefined) return "duplicate_reply";
          await queue.add("reply", request, {
            jobId,
            removeOnComplete: { age: 86_400, count: 1000 },
            removeOnFail: { age: 7 * 86_400 },
          });
          return "queued";
        });
      } catch (error) {
        throw new QueueUnavailableError(error, `Redis at ${redisAddress(options.redisUrl)} did not answer`);
      }
    },
    drain: idle,
    async shutdown(graceMs) {
      await shutDown(
        {
          name: "fleet replies",
          reason: { kind: "handback" },
          stopTaking: () => worker.pause(true),
          running: () => running.size,
          idle,
          stopRunning: (reason) => {
            for (const controller of running.values()) controller.abort(reason);
          },
          // Nothing of ours runs any more (or it is left behind). A plain close waits on the
          // worker's blocking read, which never returns after a Redis restart (a shutdown hung).
          close: async () => {
            await worker.close(true);
            await queue.close();
            producer.disconnect();
            workerConnection.disconnect();
          },
        },
        graceMs,
        log,
      );
    },
    stats: () => ({ running: running.size, pending: 0 }),
  };
}
