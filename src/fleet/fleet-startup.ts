// The line a replica writes as it joins the fleet: which Redis (host and port, database; never the
// URL's user or password), which queues, and the lock time after which a silent replica's jobs are
// taken over — what an operator compares across replicas that should share one queue.

import type { JobLogger } from "../log/job-logger.ts";
import { REPLY_QUEUE_NAME, REVIEW_QUEUE_NAME } from "./fleet-timing.ts";

export function redisTarget(redisUrl: string): { host: string; db: number; tls: boolean } {
  const url = new URL(redisUrl);
  const db = Number(url.pathname.replace(/^\//, "") || "0");
  return { host: url.host, db: Number.isInteger(db) ? db : 0, tls: url.protocol === "rediss:" };
}

export function logFleetStart(log: JobLogger, redisUrl: string, lockMs: number): void {
  log.info(
    {
      event: "fleet_started",
      redis: redisTarget(redisUrl),
      queues: [REVIEW_QUEUE_NAME, REPLY_QUEUE_NAME],
      lock_ms: lockMs,
    },
    "fleet queue on Redis",
  );
}
