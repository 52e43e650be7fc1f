// The one shutdown sequence every queue runs (the process's own review and reply queues, the
// fleet's on Redis): stop taking work → running jobs may finish for the grace period → the rest
// are stopped with one reason (cancelled in one process, handed back to a shared queue) → close.
// Every wait is bounded: a job stuck where its abort signal never reaches (a GitHub that accepts a
// connection and never answers) is left behind after AFTER_STOP_MS, so a shutdown ends by the
// grace period plus a few seconds and says in the log what it stopped and what it left.

import type { CancelReason } from "../domain/cancel-reason.ts";
import type { JobLogger } from "../log/job-logger.ts";

/** How long stopped jobs may take to complete (or hand back) their check runs. */
export const AFTER_STOP_MS = 3_000;
/** How long closing a queue's connections may take. */
export const CLOSE_MS = 2_000;
/** The most a queue's shutdown takes beyond the grace period (the server's hard deadline adds to it). */
export const SHUTDOWN_OVERRUN_MS = AFTER_STOP_MS + CLOSE_MS;

/** What a queue offers the sequence; each step is the queue's own. */
export interface Stoppable {
  /** Named in the log lines ("reviews", "replies"). */
  readonly name: string;
  /** How running jobs are stopped after the grace period. */
  readonly reason: CancelReason;
  /** Takes no new job; what only waited leaves the line (each queue reports it its own way). */
  stopTaking(): Promise<void> | void;
  /** The jobs running now. */
  running(): number;
  /** Resolves once nothing of the queue runs and every report it started has settled. */
  idle(): Promise<void>;
  /** Aborts every running job with the reason. */
  stopRunning(reason: CancelReason): void;
  /** Releases connections and workers; nothing of the queue runs any more (or is left behind). */
  close(): Promise<void>;
}

export interface ShutdownTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: ShutdownTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** What the shutdown did: jobs stopped after the grace, and jobs still stuck when it ended. */
export interface ShutdownReport {
  readonly stopped: number;
  readonly stuck: number;
}

/** Settles with "done" when `work` does, or "late" after `ms` (the work itself goes on). */
async function within(work: Promise<unknown>, ms: number, timers: ShutdownTimers): Promise<"done" | "late"> {
  let handle: unknown;
  const late = new Promise<"late">((resolve) => {
    handle = timers.setTimeout(() => resolve("late"), ms);
  });
  const done = work.then(
    () => "done" as const,
    () => "done" as const,
  );
  const first = await Promise.race([done, late]);
  timers.clearTimeout(handle);
  return first;
}

export async function shutDown(
  queue: Stoppable,
  graceMs: number,
  log: JobLogger,
  timers: ShutdownTimers = realTimers,
): Promise<ShutdownReport> {
  const { name, reason } = queue;
  log.info({ queue: name, running: queue.running(), graceMs }, "queue shutdown started");
  const taking = queue.stopTaking();
  // A queue on Redis stops its worker there; a Redis that does not answer must not hold this up.
  if (taking instanceof Promise && (await within(taking, CLOSE_MS, timers)) === "late")
    log.warn({ queue: name }, "the queue's worker did not pause in time");
  let stopped = 0;
  if ((await within(queue.idle(), graceMs, timers)) === "late") {
    stopped = queue.running();
    const what = reason.kind === "handback" ? "handing running jobs back" : "cancelling running jobs";
    log.info({ queue: name, jobs: stopped, reason: reason.kind }, what);
    queue.stopRunning(reason);
  }
  let stuck = 0;
  if ((await within(queue.idle(), AFTER_STOP_MS, timers)) === "late") {
    stuck = queue.running();
    log.warn({ queue: name, stuck }, "jobs did not stop; the queue closes without them");
  }
  if ((await within(queue.close(), CLOSE_MS, timers)) === "late")
    log.warn({ queue: name }, "the queue did not close in time");
  log.info({ queue: name, stopped, stuck, reason: reason.kind }, "queue shutdown ended");
  return { stopped, stuck };
}
