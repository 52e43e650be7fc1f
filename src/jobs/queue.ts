// The in-process review queue (the one process, no Redis): pure scheduling over an injected runner
// and timers. One job per pull request (key owner/repo#pr), by the rules of domain/pr-rules.ts,
// which the fleet's queue consults too. Memory is bounded: the sets forget their oldest entries.
// A request that has to wait is announced (`onWaiting`, which answers with the queued check run's
// id), and one that leaves the line without running, replaced by a newer push or dropped at
// shutdown, is reported (`onDropped`), so the shell can show a queued check run and close it:
// nothing waits invisibly or vanishes silently. The runner receives the job as plain data.

import type { CancelReason } from "../domain/cancel-reason.ts";
import { decideReview } from "../domain/pr-rules.ts";
import { queueKey, type ReviewRequest } from "../domain/review-request.ts";
import type { JobLogger } from "../log/job-logger.ts";
import { BoundedSet } from "./bounded-set.ts";
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

/** The queue's state, which the functions below share. */
interface Queue {
  readonly options: ReviewQueueOptions;
  readonly deliveries: BoundedSet;
  readonly reviewed: BoundedSet;
  readonly running: Map<string, Running>;
  /** Insertion order = FIFO across pull requests. */
  readonly pending: Map<string, Waiting>;
  readonly reporting: Set<Promise<void>>;
  accepting: boolean;
  idleWaiters: Array<() => void>;
}

const defaultTimers: QueueTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

const SILENT: JobLogger = { info: () => {}, warn: () => {} };

const shaKey = (r: ReviewRequest) => `${queueKey(r)}@${r.headSha}`;

const jobOf = async (waiting: Waiting): Promise<ReviewJob> =>
  newJob(waiting.request, (await waiting.checkRunId?.catch(() => null)) ?? null);

function drop(q: Queue, waiting: Waiting, reason: CancelReason): void {
  const onDropped = q.options.onDropped;
  if (onDropped === undefined) return;
  const report = jobOf(waiting)
    .then((job) => onDropped(job, reason))
    .catch(() => {});
  q.reporting.add(report);
  void report.finally(() => q.reporting.delete(report));
}

function notifyIdle(q: Queue): void {
  if (q.running.size > 0 || q.pending.size > 0) return;
  const waiters = q.idleWaiters;
  q.idleWaiters = [];
  for (const resolve of waiters) resolve();
}

/** Nothing runs, nothing waits, and every dropped request has been reported. */
async function idle(q: Queue): Promise<void> {
  if (q.running.size > 0 || q.pending.size > 0)
    await new Promise<void>((resolve) => q.idleWaiters.push(resolve));
  while (q.reporting.size > 0) await Promise.all(q.reporting);
}

function start(q: Queue, key: string, waiting: Waiting): void {
  const { request } = waiting;
  const controller = new AbortController();
  const run = (job: ReviewJob) => q.options.runner(job, controller.signal);
  const done = (async () => {
    try {
      // A job that never waited starts now, in this very call; one that waited first learns
      // which queued check run was made for it.
      const settlement = await (waiting.checkRunId === null
        ? run(newJob(request))
        : jobOf(waiting).then(run));
      if (settlement.remember && !controller.signal.aborted) q.reviewed.add(shaKey(request));
    } catch (error) {
      q.options.onRunnerError?.(error, request);
    } finally {
      q.running.delete(key);
      pump(q);
      notifyIdle(q);
    }
  })();
  q.running.set(key, { request, controller, done });
}

function pump(q: Queue): void {
  if (!q.accepting) return;
  for (const [key, waiting] of q.pending) {
    if (q.running.size >= q.options.concurrency) return;
    if (q.running.has(key)) continue;
    q.pending.delete(key);
    start(q, key, waiting);
  }
}

function enqueueNow(q: Queue, request: ReviewRequest): EnqueueOutcome {
  if (!q.accepting) return "shutting_down";
  const key = queueKey(request);
  const deliveryKey = `${request.deliveryId}:${key}`;
  const current = q.running.get(key);
  const waiting = q.pending.get(key);
  const decision = decideReview(
    {
      deliverySeen: q.deliveries.has(deliveryKey),
      runningSha: current && !current.controller.signal.aborted ? current.request.headSha : null,
      waitingSha: waiting?.request.headSha ?? null,
      reviewed: q.reviewed.has(shaKey(request)),
    },
    request,
  );
  if (decision.outcome !== "duplicate_delivery") q.deliveries.add(deliveryKey);
  if (decision.outcome !== "queued") return decision.outcome;
  const reason: CancelReason = { kind: "superseded", headSha: request.headSha };
  if (decision.abortRunning) current?.controller.abort(reason);
  if (decision.dropWaiting && waiting) drop(q, waiting, reason);
  q.pending.delete(key); // re-insert so the newest push keeps its turn at the back of the line
  const entry: Waiting = { request, checkRunId: null };
  q.pending.set(key, entry);
  pump(q);
  if (q.pending.get(key) === entry && q.options.onWaiting) entry.checkRunId = q.options.onWaiting(request);
  return "queued";
}

/** The queue's steps of the one shutdown sequence: running jobs are cancelled after the grace. */
function stoppable(q: Queue): Stoppable {
  return {
    name: "reviews",
    reason: { kind: "shutdown" },
    stopTaking: () => {
      q.accepting = false;
      for (const waiting of q.pending.values()) drop(q, waiting, { kind: "shutdown" });
      q.pending.clear();
      notifyIdle(q);
    },
    running: () => q.running.size,
    idle: () => idle(q),
    stopRunning: (reason) => {
      for (const job of q.running.values()) job.controller.abort(reason);
    },
    close: async () => {},
  };
}

export function createReviewQueue(options: ReviewQueueOptions): ReviewQueue {
  const memory = options.memory ?? 1000;
  const q: Queue = {
    options,
    deliveries: new BoundedSet(memory),
    reviewed: new BoundedSet(memory),
    running: new Map(),
    pending: new Map(),
    reporting: new Set(),
    accepting: true,
    idleWaiters: [],
  };
  const steps = stoppable(q);
  return {
    // Decided synchronously (a job that can start has started when this returns its promise).
    enqueue: async (request) => enqueueNow(q, request),
    drain: () => idle(q),
    shutdown: async (graceMs) => {
      await shutDown(steps, graceMs, options.log ?? SILENT, options.timers ?? defaultTimers);
    },
    stats: () => ({ running: q.running.size, pending: q.pending.size }),
    isReady: () => q.accepting,
  };
}
