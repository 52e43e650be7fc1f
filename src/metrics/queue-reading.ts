// What the queue gauge reads at a scrape: this process's running jobs, and the jobs waiting and
// delayed — in the fleet's shared queue when there is one (a job delayed in Redis used to read as
// nothing at all), else in this process's own line.

import type { QueueStats } from "./metrics.ts";

export interface ReadableQueue {
  stats(): { readonly running: number; readonly pending: number };
  queued?(): Promise<{ readonly waiting: number; readonly delayed: number }>;
}

export async function readQueue(queue: ReadableQueue): Promise<QueueStats> {
  const own = queue.stats();
  if (queue.queued === undefined) return own;
  const shared = await queue.queued();
  return { running: own.running, pending: shared.waiting, delayed: shared.delayed };
}
