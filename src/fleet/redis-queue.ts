// The fleet's review queue: BullMQ on Redis, shared by every replica (REDIS_URL). Each replica
// accepts webhooks into it and runs a worker on it. The rules of one process hold across the fleet
// through pr-state.ts (one review per pull request, a newer push supersedes, a reviewed SHA and a
// delivery id count once); a running job another replica must stop hears it on a pub/sub channel,
// and, should that message be missed, from its own check every few seconds.
//
// Nothing is acknowledged before it is durable: a job is added first (held back, so no worker takes
// it before it is decided and announced), then decided, then released; a Redis that cannot take it
// makes `enqueue` reject with status 503. A killed replica's jobs are found by BullMQ's stalled-job
// check and run again elsewhere on the same check run (its id is stored in the job as soon as it
// is open). On shutdown, running jobs are handed back to the queue after the grace period.

import { randomUUID } from "node:crypto";
import { DelayedError, type Job, Queue, WaitingError, Worker } from "bullmq";
import { Redis } from "ioredis";
import type { KnownRun } from "../check-runs/check-runs.ts";
import type { CancelReason } from "../domain/cancel-reason.ts";
import { queueKey, type ReviewRequest } from "../domain/review-request.ts";
import { QueueUnavailableError, withinMs } from "../jobs/queue-unavailable.ts";
import type { ReviewJob } from "../jobs/review-job.ts";
import type { EnqueueOutcome, JobRunner, ReviewQueue } from "../jobs/review-queue.ts";
import { shutDown } from "../jobs/shutdown.ts";
import { errorDetail } from "../pipeline/error-detail.ts";
import type { JobLogger } from "../pipeline/job-logger.ts";
import { DEFAULT_FLEET_TIMING, type FleetTiming, REVIEW_QUEUE_NAME } from "./fleet-timing.ts";
import { createPrState } from "./pr-state.ts";

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
  /** Timings, shortened by tests; the defaults are documented in README "Scale out". */
  readonly timing?: Partial<FleetTiming>;
}

/** A job added but not yet decided waits this long before a worker may take it (see above). */
const HOLD_MS = 60_000;
/** A job whose pull request is busy (another review of it runs) is looked at again after this. */
const BUSY_RETRY_MS = 1_000;

interface StoredJob {
  readonly request: ReviewRequest;
  readonly checkRun: KnownRun | null;
}

interface Running {
  readonly jobId: string;
  readonly controller: AbortController;
  readonly done: Promise<unknown>;
}

export function createRedisQueue(options: RedisQueueOptions): ReviewQueue {
  const timing = { ...DEFAULT_FLEET_TIMING, ...options.timing };
  const name = options.queueName ?? REVIEW_QUEUE_NAME;
  const prefix = `loupe:${name}:`;
  const { log } = options;
  // Webhooks must fail fast when Redis is away (no offline queue), so GitHub gets a 503 in time.
  const producer = new Redis(options.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  // The worker side waits out a Redis restart instead (BullMQ requires maxRetriesPerRequest null).
  const workerConnection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const subscriber = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  for (const connection of [producer, workerConnection, subscriber]) {
    connection.on("error", (error: Error) => log.warn({ error: errorDetail(error) }, "redis connection"));
  }
  const queue = new Queue<StoredJob>(name, { connection: producer });
  const acceptState = createPrState(producer, { prefix, leaseMs: timing.leaseMs });
  const workState = createPrState(workerConnection, { prefix, leaseMs: timing.leaseMs });
  const abortChannel = `${prefix}abort`;
  const running = new Map<string, Running>();
  const background = new Set<Promise<unknown>>();
  let idleWaiters: Array<() => void> = [];

  const track = (work: Promise<unknown>) => {
    const settled = work.catch((error: unknown) =>
      log.warn({ error: errorDetail(error) }, "fleet background step failed"),
    );
    background.add(settled);
    void settled.finally(() => background.delete(settled));
  };

  void subscriber.subscribe(abortChannel).catch(() => undefined);
  subscriber.on("message", (_channel: string, message: string) => {
    try {
      const { jobId, reason } = JSON.parse(message) as { jobId: string; reason: CancelReason };
      running.get(jobId)?.controller.abort(reason);
    } catch {
      // A message Loupe did not write: nothing to stop.
    }
  });

  async function enqueue(request: ReviewRequest): Promise<EnqueueOutcome> {
    const target = { ...request };
    const jobId = randomUUID();
    try {
      return await withinMs(timing.enqueueTimeoutMs, async () => {
        // Without an offline queue a command fails at once while connecting: a webhook that
        // arrives as the replica starts (or as Redis comes back) waits for the connection instead.
        if (producer.status !== "ready") await new Promise((resolve) => producer.once("ready", resolve));
        const rank = await producer.zcard(`${prefix}installation:${request.installationId}`);
        // Fairness: the n-th live job of an installation gets priority n, so every installation's
        // first job comes before any installation's second (BullMQ runs lower numbers first).
        const job = await queue.add(
          "review",
          { request, checkRun: null },
          {
            jobId,
            delay: HOLD_MS,
            priority: Math.min(rank + 1, 2_000_000),
            attempts: 3,
            backoff: { type: "exponential", delay: 5_000 },
            removeOnComplete: { age: 86_400, count: 1000 },
            removeOnFail: { age: 7 * 86_400 },
          },
        );
        const decision = await acceptState.decide({
          target,
          jobId,
          deliveryId: request.deliveryId,
          headSha: request.headSha,
          rerun: request.rerun,
        });
        if (decision.outcome !== "queued") {
          await job.remove().catch(() => undefined);
          return decision.outcome;
        }
        const reason: CancelReason = { kind: "superseded", headSha: request.headSha };
        if (decision.abort !== null)
          await producer.publish(abortChannel, JSON.stringify({ jobId: decision.abort, reason }));
        if (decision.drop !== null) track(dropWaiting(decision.drop, reason));
        const checkRunId = await options.announce(request);
        await job.updateData({
          request,
          checkRun: checkRunId === null ? null : { id: checkRunId, headSha: request.headSha },
        });
        await job.promote().catch(() => undefined); // already due: nothing to release
        return "queued";
      });
    } catch (error) {
      throw new QueueUnavailableError(error);
    }
  }

  /** A waiting job replaced by a newer push: out of the queue, its queued run cancelled. */
  async function dropWaiting(jobId: string, reason: CancelReason): Promise<void> {
    const job = await queue.getJob(jobId);
    if (job === undefined) return;
    // A worker may have taken it a moment ago: then it sees it is superseded and ends itself.
    const removed = await job.remove().then(
      () => true,
      () => false,
    );
    if (removed && job.data.checkRun !== null)
      await options.cancel(job.data.request, job.data.checkRun.id, reason);
  }

  async function process(job: Job<StoredJob>, token?: string): Promise<void> {
    const { request, checkRun } = job.data;
    const jobId = job.id!;
    const target = request;
    const claim = await workState.claim(target, jobId, request.headSha);
    if (claim === "busy") {
      await job.moveToDelayed(Date.now() + BUSY_RETRY_MS, token);
      throw new DelayedError();
    }
    if (claim === "stale") {
      const reason = await workState.supersededBy(jobId);
      if (reason !== null && checkRun !== null) await options.cancel(request, checkRun.id, reason);
      await workState.finish(target, jobId, request.headSha, false);
      return;
    }
    log.info({ key: queueKey(request), jobId, attempt: job.attemptsStarted }, "fleet job started");
    const controller = new AbortController();
    const stopIfSuperseded = async () => {
      const reason = await workState.supersededBy(jobId);
      if (reason !== null) controller.abort(reason);
      else if (!(await workState.renew(target, jobId)))
        controller.abort({ kind: "superseded", headSha: request.headSha });
    };
    await stopIfSuperseded();
    const poll = setInterval(() => void stopIfSuperseded().catch(() => undefined), timing.pollMs);
    const reviewJob: ReviewJob = { request, checkRun, attempt: job.attemptsStarted };
    const onCheckRun = async (run: KnownRun) => {
      await job.updateData({ request, checkRun: run });
    };
    const done = options.runner(reviewJob, controller.signal, onCheckRun);
    running.set(jobId, { jobId, controller, done });
    try {
      const settlement = await done;
      const reason = controller.signal.reason as CancelReason | undefined;
      if (controller.signal.aborted && reason?.kind === "handback") {
        // Back into the queue, still holding its pull request: the next replica resumes it.
        await job.moveToWait(token);
        throw new WaitingError();
      }
      await workState.finish(
        target,
        jobId,
        request.headSha,
        settlement.remember && !controller.signal.aborted,
      );
    } finally {
      clearInterval(poll);
      running.delete(jobId);
      if (running.size === 0) {
        const waiters = idleWaiters;
        idleWaiters = [];
        for (const resolve of waiters) resolve();
      }
    }
  }

  // Not a BullMQ sandboxed processor: the repository work already runs in Loupe's workers (heap
  // limit, deadline kept here), while a sandbox gets the job as JSON only — GitHub's client, the
  // check run and the cancel signals would move into it, a stuck one never reads BullMQ's abort
  // message, and a dead one fails the job with no reason on its check run. Replies alike.
  const worker = new Worker<StoredJob>(name, process, {
    connection: workerConnection,
    concurrency: options.concurrency,
    lockDuration: timing.lockMs,
    stalledInterval: timing.stalledIntervalMs,
    // A job taken over after a crash may crash its replica again (an OOM on one repository):
    // after a few takeovers it fails instead of taking the fleet down one replica at a time.
    maxStalledCount: 3,
  });
  worker.on("error", (error: Error) => log.warn({ error: errorDetail(error) }, "fleet worker"));
  worker.on("failed", (job, error) =>
    log.warn({ key: job ? queueKey(job.data.request) : null, error: errorDetail(error) }, "fleet job failed"),
  );

  const idle = () =>
    running.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve));

  return {
    enqueue,
    async drain() {
      await idle();
      while (background.size > 0) await Promise.all(background);
    },
    async shutdown(graceMs) {
      await shutDown(
        {
          name: "fleet reviews",
          reason: { kind: "handback" },
          stopTaking: () => worker.pause(true), // take no new job; the running ones go on
          running: () => running.size,
          idle: async () => {
            await idle();
            while (background.size > 0) await Promise.all(background);
          },
          stopRunning: (reason) => {
            for (const job of running.values()) job.controller.abort(reason);
          },
          // A plain close waits on the worker's blocking read, which never returns after a Redis
          // restart (measured: a shutdown hung until killed).
          close: async () => {
            await worker.close(true);
            await queue.close();
            subscriber.disconnect();
            producer.disconnect();
            workerConnection.disconnect();
          },
        },
        graceMs,
        log,
      );
    },
    stats: () => ({ running: running.size, pending: 0 }),
    isReady: () => producer.status === "ready",
  };
}
