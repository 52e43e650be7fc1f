// The fleet's review queue: BullMQ on Redis, shared by every replica (REDIS_URL). Each replica
// accepts webhooks into it and runs a worker on it. The rules of one process hold across the fleet
// through pr-state.ts (one review per pull request, a newer push supersedes, a reviewed SHA and a
// delivery id count once); a running job another replica must stop hears it on a pub/sub channel,
// and, should that message be missed, from its own check every few seconds.
//
// Nothing is acknowledged before it is durable and decided, and nothing slower (fleet-enqueue.ts);
// a Redis that cannot take it makes `enqueue` reject with status 503. A killed replica's jobs are
// found by BullMQ's stalled-job check and run again elsewhere on the same check run (its id is
// stored in the job as soon as it is open). On shutdown (jobs/shutdown.ts), running jobs are
// handed back to the queue after the grace period.

import { Worker } from "bullmq";
import { type CancelReason, isCancelReason } from "../domain/cancel-reason.ts";
import { queueKey } from "../domain/review-request.ts";
import type { ReviewQueue } from "../jobs/review-queue.ts";
import { shutDown } from "../jobs/shutdown.ts";
import { errorDetail } from "../log/error-detail.ts";
import {
  createFleetContext,
  encodeReason,
  type FleetContext,
  type RedisQueueOptions,
  type StoredJob,
} from "./fleet-context.ts";
import { fleetEnqueue } from "./fleet-enqueue.ts";
import { fleetProcessor } from "./fleet-process.ts";
import { queuedJobs, watchRedis } from "./redis-health.ts";
import { storedRequest } from "./stored-request.ts";

export type { RedisQueueOptions } from "./fleet-context.ts";

export function createRedisQueue(options: RedisQueueOptions): ReviewQueue {
  const fleet = createFleetContext(options);
  const { running, background, log } = fleet;
  let idleWaiters: Array<() => void> = [];
  const onIdle = () => {
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };
  const worker = startWorker(fleet, onIdle);
  listenForAborts(fleet, worker);
  const idle = async () => {
    if (running.size > 0) await new Promise<void>((resolve) => idleWaiters.push(resolve));
    while (background.size > 0) await Promise.all(background);
  };
  const shutdown = async (graceMs: number) => {
    await shutDown(
      {
        name: "fleet reviews",
        reason: { kind: "handback" },
        stopTaking: () => worker.pause(true), // take no new job; the running ones go on
        running: () => running.size,
        idle,
        stopRunning: (reason) => worker.cancelAllJobs(encodeReason(reason)),
        // A plain close waits on the worker's blocking read, which never returns after a Redis
        // restart (measured: a shutdown hung until killed).
        close: async () => {
          await worker.close(true);
          await fleet.queue.close();
          for (const connection of [fleet.subscriber, fleet.producer, fleet.workerConnection])
            connection.disconnect();
        },
      },
      graceMs,
      log,
    );
  };
  return {
    enqueue: fleetEnqueue(fleet),
    drain: idle,
    shutdown,
    stats: () => ({ running: running.size, pending: 0 }),
    queued: () => queuedJobs(fleet.queue),
    isReady: () => fleet.producer.status === "ready",
  };
}

/**
 * A running job another replica must stop hears it on a pub/sub channel, and is cancelled with
 * BullMQ's own `cancelJob` (which reaches only this worker's jobs: hence the channel).
 */
function listenForAborts(fleet: FleetContext, worker: Worker<StoredJob>): void {
  void fleet.subscriber.subscribe(fleet.abortChannel).catch(() => undefined);
  fleet.subscriber.on("message", (_channel: string, message: string) => {
    try {
      const { jobId, reason } = JSON.parse(message) as { jobId: string; reason: CancelReason };
      if (isCancelReason(reason)) worker.cancelJob(jobId, encodeReason(reason));
    } catch {
      // A message Loupe did not write: nothing to stop.
    }
  });
}

// Not a BullMQ sandboxed processor: the repository work already runs in Loupe's workers (heap
// limit, deadline kept here), while a sandbox gets the job as JSON only — GitHub's client, the
// check run and the cancel signals would move into it, a stuck one never reads BullMQ's abort
// message, and a dead one fails the job with no reason on its check run. Replies alike.
function startWorker(fleet: FleetContext, onIdle: () => void): Worker<StoredJob> {
  const { log, timing } = fleet;
  const worker = new Worker<StoredJob>(fleet.name, fleetProcessor(fleet, onIdle), {
    connection: fleet.workerConnection,
    concurrency: fleet.options.concurrency,
    lockDuration: timing.lockMs,
    stalledInterval: timing.stalledIntervalMs,
    // A job taken over after a crash may crash its replica again (an OOM on one repository):
    // after a few takeovers it fails instead of taking the fleet down one replica at a time.
    maxStalledCount: 3,
  });
  watchRedis(fleet.health, [], [worker]);
  worker.on("failed", (job, error) =>
    log.warn(
      { key: job ? queueKey(storedRequest(job.data.request)) : null, error: errorDetail(error) },
      "fleet job failed",
    ),
  );
  return worker;
}
