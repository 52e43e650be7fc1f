// The App process's shutdown on SIGTERM, written once: every queue runs its shutdown sequence
// (shutdown.ts) at once, then what they used (repository workers, the HTTP server, the dashboard)
// is closed, each step bounded; the log says when it starts and when it ends. A hard deadline
// backs it: whatever is stuck, the process exits by the grace period plus HARD_MARGIN_MS.

import type { JobLogger } from "../log/job-logger.ts";
import { CLOSE_MS, SHUTDOWN_OVERRUN_MS } from "./shutdown.ts";

/** Past the grace period, the queues' own bounds, and a little for the steps after them. */
export const HARD_MARGIN_MS = SHUTDOWN_OVERRUN_MS + 3_000;

export interface ProcessShutdown {
  readonly graceMs: number;
  readonly log: JobLogger;
  readonly queues: readonly { shutdown(graceMs: number): Promise<void> }[];
  /** Closed in order once the queues have stopped. */
  readonly after: readonly (() => Promise<void> | void)[];
  /** Ends the process (after its log lines are written). */
  readonly exit: (code: number) => void;
  /** Past the grace period, when the process exits whatever is stuck; HARD_MARGIN_MS by default. */
  readonly marginMs?: number;
}

const bounded = async (step: () => Promise<void> | void, ms: number): Promise<void> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([
    Promise.resolve()
      .then(step)
      .catch(() => undefined),
    late,
  ]);
  clearTimeout(timer);
};

export async function shutDownProcess(steps: ProcessShutdown): Promise<void> {
  const { graceMs, log } = steps;
  const deadlineMs = graceMs + (steps.marginMs ?? HARD_MARGIN_MS);
  log.info({ graceMs, deadlineMs }, "shutdown started");
  const hard = setTimeout(() => {
    log.warn({ deadlineMs }, "shutdown deadline passed; exiting with work left behind");
    steps.exit(1);
  }, deadlineMs);
  await Promise.all(steps.queues.map((queue) => queue.shutdown(graceMs).catch(() => undefined)));
  for (const step of steps.after) await bounded(step, CLOSE_MS);
  clearTimeout(hard);
  log.info({}, "shutdown ended");
  steps.exit(0);
}
