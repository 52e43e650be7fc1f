// Where a queue's Redis failures go: every ioredis connection and every BullMQ object that reports
// errors (a Queue with no `error` listener prints each one to stderr as a raw stack, breaking a
// JSON log) tells one DependencyState, shared by the process's queues, so that Redis being away is
// one line when it goes, one every few seconds while it stays away, and one when it is back.

import type { EventEmitter } from "node:events";
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { withinMs } from "../jobs/queue-unavailable.ts";
import type { JobLogger } from "../log/job-logger.ts";
import { createDependencyState, type DependencyState } from "../metrics/dependency-state.ts";
import { NO_METRICS } from "../metrics/metrics.ts";

/** Without a shared state (tests of one queue): a queue's own, at the operator's default pace. */
const DEFAULT_STILL_DOWN_MS = 60_000;
/** A scrape of /metrics never waits on a Redis that is away. */
const COUNTS_TIMEOUT_MS = 1_000;

export function redisHealthOr(given: DependencyState | undefined, log: JobLogger): DependencyState {
  return (
    given ??
    createDependencyState({
      dependency: "redis",
      log,
      metrics: NO_METRICS,
      stillDownEveryMs: DEFAULT_STILL_DOWN_MS,
    })
  );
}

/** Connections say when they fail and when they are ready again; BullMQ objects when they fail. */
export function watchRedis(
  health: DependencyState,
  connections: readonly Redis[],
  emitters: readonly Pick<EventEmitter, "on">[],
): void {
  for (const connection of connections) {
    connection.on("error", (error: Error) => health.failed(error));
    connection.on("ready", () => health.succeeded());
  }
  for (const emitter of emitters) emitter.on("error", (error: Error) => health.failed(error));
}

/** The shared queue's jobs not running yet: waiting (priorities included) and delayed. */
export async function queuedJobs(queue: Queue): Promise<{ waiting: number; delayed: number }> {
  const counts = await withinMs(COUNTS_TIMEOUT_MS, () =>
    queue.getJobCounts("waiting", "prioritized", "delayed"),
  ).catch(() => null);
  if (counts === null) return { waiting: 0, delayed: 0 };
  return { waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0), delayed: counts.delayed ?? 0 };
}
