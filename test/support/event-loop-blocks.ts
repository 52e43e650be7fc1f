// How long the event loop was held, measured so that other processes' load does not count: a
// 5 ms timer notes every gap between its runs, less the time the kernel kept this thread waiting
// for a CPU in that gap (its run-queue delay, /proc/thread-self/schedstat). What is left is the
// thread's own synchronous work — garbage collection and synchronous I/O included — which on a
// busy two-core machine would otherwise be stretched by however many processes share the cores.
// Where schedstat is missing (not Linux), the gaps are plain wall-clock time.
//
//   const probe = probeEventLoopBlocks();
//   … the work …
//   const { maxBlockMs, maxWallMs } = probe.stop();

import fs from "node:fs";
import { performance } from "node:perf_hooks";

const SCHEDSTAT = "/proc/thread-self/schedstat";

export interface EventLoopBlocks {
  /** The longest gap between two runs of the timer, less this thread's run-queue delay in it (ms). */
  readonly maxBlockMs: number;
  /** The longest gap in wall-clock time (ms), load included. */
  readonly maxWallMs: number;
}

export interface EventLoopProbe {
  /** Notes the last gap (so a block running to the end counts) and stops the timer; idempotent. */
  stop(): EventLoopBlocks;
}

/** This thread's total run-queue delay in ms, or 0 where the kernel does not say. */
function runQueueDelayMs(): number {
  try {
    const fields = fs.readFileSync(SCHEDSTAT, "utf8").trim().split(/\s+/);
    const ns = Number(fields[1]);
    return Number.isFinite(ns) ? ns / 1e6 : 0;
  } catch {
    return 0;
  }
}

export function probeEventLoopBlocks(intervalMs = 5): EventLoopProbe {
  let lastWall = performance.now();
  let lastDelay = runQueueDelayMs();
  let maxBlockMs = 0;
  let maxWallMs = 0;
  const tick = (): void => {
    const wall = performance.now();
    const delay = runQueueDelayMs();
    const gap = wall - lastWall;
    maxWallMs = Math.max(maxWallMs, gap);
    maxBlockMs = Math.max(maxBlockMs, gap - (delay - lastDelay));
    lastWall = wall;
    lastDelay = delay;
  };
  const timer = setInterval(tick, intervalMs);
  let stopped = false;
  return {
    stop() {
      if (!stopped) {
        stopped = true;
        tick();
        clearInterval(timer);
      }
      return { maxBlockMs, maxWallMs };
    },
  };
}
