// The dashboard of a fleet's queue in Redis (REDIS_URL): its own BullMQ handle on its own
// connection, so the page never waits behind the webhook path's connection (which fails fast) or
// the worker's (which blocks on the queue). A Redis that is away makes the dashboard's API calls
// fail after one retry, which bull-board shows as an error, instead of holding the page open.
// Its connection and its queues report to the process's Redis state (down, still down, up), as
// the queue's own connections do: an outage is a few lines, not a stack per reconnection attempt.

import { Queue } from "bullmq";
import { Redis } from "ioredis";
import type { DashboardCredentials } from "../config/dashboard-config.ts";
import { REPLY_QUEUE_NAME, REVIEW_QUEUE_NAME } from "../fleet/fleet-timing.ts";
import { createQueueDashboard, type DashboardHandler } from "./queue-dashboard.ts";

export interface RedisDashboardOptions {
  readonly redisUrl: string;
  readonly credentials: DashboardCredentials;
  readonly queueName?: string;
  readonly replyQueueName?: string;
  /** Redis's state for the whole process: told every connection error, and each reconnection. */
  readonly redisHealth: { failed(error: unknown): void; succeeded(): void };
}

export interface RedisDashboard {
  readonly handler: DashboardHandler;
  close(): Promise<void>;
}

export function openRedisDashboard(options: RedisDashboardOptions): RedisDashboard {
  const connection = new Redis(options.redisUrl, { maxRetriesPerRequest: 1 });
  const health = options.redisHealth;
  connection.on("error", (error: Error) => health.failed(error));
  connection.on("ready", () => health.succeeded());
  // The reviews, and the replies in Loupe's threads (each its own BullMQ queue). A queue re-emits
  // its connection's errors: heard here, so none reaches the process as an unhandled event.
  const queues = [
    new Queue(options.queueName ?? REVIEW_QUEUE_NAME, { connection }),
    new Queue(options.replyQueueName ?? REPLY_QUEUE_NAME, { connection }),
  ];
  for (const queue of queues) queue.on("error", (error: Error) => health.failed(error));
  return {
    handler: createQueueDashboard({ queues, credentials: options.credentials }),
    async close() {
      await Promise.all(queues.map((queue) => queue.close()));
      connection.disconnect();
    },
  };
}
