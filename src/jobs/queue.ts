// The in-process review queue (the one process, no Redis): pure scheduling over an injected runner and timers. One job per
// pull request (key owner/repo#pr); a push with a newer head SHA aborts the running job and takes
// its place; a SHA already reviewed is not reviewed again unless a person asked for a re-run; a
// redelivered webhook is ignored. Memory is bounded: the sets below forget their oldest entries.
// A request that has to wait is announced (`onWaiting`, which answers with the queued check run's
// id), and one that leaves the line without running, replaced by a newer push or dropped at
// shutdown, is reported (`onDropped`), so the shell can show a queued check run and close it:
// nothing waits invisibly or vanishes silently. The runner receives the job as plain data.

import type { CancelReason } from "../domain/cancel-reason.ts";
import { queueKey, type ReviewRequest } from "../domain/review-request.ts";
import type { JobLogger } from "../pipeline/job-logger.ts";
import { newJob, type ReviewJob } from "./review-job.ts";
import type { EnqueueOutcome, JobRunner, ReviewQueue } from "./review-queue.ts";
import { type Stoppable, shutDown } from "./shutdown.ts";

export interface QueueTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ReviewQueueOptions {
  readonly concurrency: number;
  readonly runner: JobRunner;
  readonly timers?: QueueTimers;
  /** How many delivery ids and reviewed SHAs to remember (each). */
  readonly memory?: number;
  /** Called when a runner rejects (it should not); the queue keeps going. */
  readonly onRunnerError?: (error: unknown, request: ReviewRequest) => void;
  /** A request was queued and cannot start yet: the id of the `queued` check run made for it. */
  readonly onWaiting?: (request: ReviewRequest) => Promise<number | null>;
  /** A waiting job leaves the line without running; drain and shutdown wait for the promise. */
  readonly onDropped?: (job: ReviewJob, reason: CancelReason) => Promise<void>;
  /** Where the shutdown says what it stopped; silent by default. */
  readonly log?: JobLogger;
}

interface Waiting {
  readonly request: ReviewRequest;
  /** The queued check run announced for it, once `onWaiting` has answered. */
  checkRunId: Promise<number | null> | null;
}

interface Running {
  readonly request: ReviewRequest;
  readonly controller: AbortController;
  readonly done: Promise<void>;
}

class BoundedSet {
  readonly #items = new Set<string>();
  readonly #limit: number;
  constructor(limit: number) {
    this.#limit = limit;
  }
  has(value: string): boolean {
    return this.#items.has(value);
  }
  add(value: string): void {
    this.#items.delete(value);
    this.#items.add(value);
    if (this.#items.size > this.#limit) this.#items.delete(this.#items.values().next().value as string);
  }
}

const SILENT: JobLogger = { info: () => {}, warn: () => {} };

const defaultTimers: QueueTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function createReviewQueue(options: ReviewQueueOptions): ReviewQueue {
  const timers = options.timers ?? defaultTimers;
  const memory = options.memory ?? 1000;
  const deliveries = new BoundedSet(memory);
  const reviewed = new BoundedSet(memory);
  const running = new Map<string, Running>();
  const pending = new Map<string, Waiting>(); // insertion order = FIFO across pull requests
  let accepting = true;
  let idleWaiters: Array<() => void> = [];
  const reporting = new Set<Promise<void>>();

  const jobOf = async (waiting: Waiting): Promise<ReviewJob> =>
    newJob(waiting.request, (await waiting.checkRunId?.catch(() => null)) ?? null);

  function drop(waiting: Waiting, reason: CancelReason): void {
    const onDropped = options.onDropped;
    if (onDropped === undefined) return;
    const report = jobOf(waiting)
      .then((job) => onDropped(job, reason))
      .catch(() => {});
    reporting.add(report);
    void report.finally(() => reporting.delete(report));
  }

  const reported = async (): Promise<void> => {
    while (reporting.size > 0) await Promise.all(reporting);
  };

  const shaKey = (r: ReviewRequest) => `${queueKey(r)}@${r.headSha}`;

  function notifyIdle(): void {
    if (running.size > 0 || pending.size > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  function start(key: string, waiting: Waiting): void {
    const { request } = waiting;
    const controller = new AbortController();
    const run = (job: ReviewJob) => options.runner(job, controller.signal);
    const done = (async () => {
      try {
        // A job that never waited starts now, in this very call; one that waited first learns
        // which queued check run was made for it.
        const settlement = await (waiting.checkRunId === null
          ? run(newJob(request))
          : jobOf(waiting).then(run));
        if (settlement.remember && !controller.signal.aborted) reviewed.add(shaKey(request));
      } catch (error) {
        options.onRunnerError?.(error, request);
      } finally {
        running.delete(key);
        pump();
        notifyIdle();
      }
    })();
    running.set(key, { request, controller, done });
  }

  function pump(): void {
    if (!accepting) return;
    for (const [key, waiting] of pending) {
      if (running.size >= options.concurrency) return;
      if (running.has(key)) continue;
      pending.delete(key);
      start(key, waiting);
    }
  }

  function enqueueNow(request: ReviewRequest): EnqueueOutcome {
    if (!accepting) return "shutting_down";
    const key = queueKey(request);
    const deliveryKey = `${request.deliveryId}:${key}`;
    if (deliveries.has(deliveryKey)) return "duplicate_delivery";
    deliveries.add(deliveryKey);

    const current = running.get(key);
    const waiting = pending.get(key);
    const currentSha = current && !current.controller.signal.aborted ? current.request.headSha : null;
    if (currentSha === request.headSha) return "already_running";
    if (waiting?.request.headSha === request.headSha) return "already_pending";
    if (!request.rerun && reviewed.has(shaKey(request))) return "already_reviewed";

    const reason: CancelReason = { kind: "superseded", headSha: request.headSha };
    if (request.rerun) {
      // A re-run never displaces a push: it waits, and the orchestrator re-reads the PR's head.
      if (waiting) return "already_pending";
    } else if (current && currentSha !== null) {
      current.controller.abort(reason);
    }
    if (waiting) drop(waiting, reason);
    pending.delete(key); // re-insert so the newest push keeps its turn at the back of the line
    const entry: Waiting = { request, checkRunId: null };
    pending.set(key, entry);
    pump();
    if (pending.get(key) === entry && options.onWaiting) entry.checkRunId = options.onWaiting(request);
    return "queued";
  }

  const idle = async (): Promise<void> => {
    if (running.size > 0 || pending.size > 0) {
      await new Promise<void>((resolve) => idleWaiters.push(resolve));
    }
    await reported();
  };

  const stoppable: Stoppable = {
    name: "reviews",
    reason: { kind: "shutdown" },
    stopTaking: () => {
      accepting = false;
      for (const waiting of pending.values()) drop(waiting, { kind: "shutdown" });
      pending.clear();
      notifyIdle();
    },
    running: () => running.size,
    idle,
    stopRunning: (reason) => {
      for (const job of running.values()) job.controller.abort(reason);
    },
    close: async () => {},
  };

  return {
    // Decided synchronously (a job that can start has started when this returns its promise).
    enqueue: async (request) => enqueueNow(request),
    drain: idle,
    shutdown: async (graceMs) => {
      await shutDown(stoppable, graceMs, options.log ?? SILENT, timers);
    },
    stats: () => ({ running: running.size, pending: pending.size }),
    isReady: () => accepting,
  };
}
