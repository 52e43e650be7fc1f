// How long the event loop was held by this thread's own work, measured so that other processes'
// load does not count: a 5 ms timer notes every gap between its runs, and the CPU time this thread
// spent in that gap (`process.threadCpuUsage()`, user and kernel: garbage collection on this
// thread, a fork's page-table copy and synchronous reads from the page cache included). Neither
// the time the kernel kept the thread waiting for a CPU nor the time it slept waiting for V8's
// helper threads counts: both grow with however many processes share the cores (on a 2-core
// machine at load 17 the same review read 208–256 ms of wall clock less run-queue delay, for
// 36–50 ms of the thread's own CPU), not with Loupe's code. A thread asleep in a synchronous wait
// is not counted either: Loupe's server thread has none (its repository work runs in workers).
//
//   const probe = probeEventLoopBlocks();
//   … the work …
//   const { maxBlockMs, maxWallMs } = probe.stop();

import { performance } from "node:perf_hooks";

export interface EventLoopBlocks {
  /** The most CPU this thread spent between two runs of the timer (ms). */
  readonly maxBlockMs: number;
  /** The longest gap in wall-clock time (ms), load included. */
  readonly maxWallMs: number;
}

export interface EventLoopProbe {
  /** Notes the last gap (so a block running to the end counts) and stops the timer; idempotent. */
  stop(): EventLoopBlocks;
}

/** This thread's CPU time so far (ms). */
export function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

export function probeEventLoopBlocks(intervalMs = 5): EventLoopProbe {
  let lastWall = performance.now();
  let lastCpu = threadCpuMs();
  let maxBlockMs = 0;
  let maxWallMs = 0;
  const tick = (): void => {
    const wall = performance.now();
    const cpu = threadCpuMs();
    maxWallMs = Math.max(maxWallMs, wall - lastWall);
    maxBlockMs = Math.max(maxBlockMs, cpu - lastCpu);
    lastWall = wall;
    lastCpu = cpu;
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
