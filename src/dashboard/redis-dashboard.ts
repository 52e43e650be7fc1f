// The dashboard of a fleet's queue in Redis (REDIS_URL): its own BullMQ handle on its own
// connection, so the page never waits behind the webhook path's connection (which fails fast) or
// the worker's (which blocks on the queue). A Redis that is away makes the dashboard's API calls
// fail after one retry, which bull-board shows as an error, instead of holding the page open.

import { Queue } from "bullmq";
import { Redis } from "ioredis";
import type { DashboardCredentials } from "../config/dashboard-config.ts";
import { REVIEW_QUEUE_NAME } from "../fleet/fleet-timing.ts";
import { REPLY_QUEUE_NAME } from "../fleet/redis-reply-queue.ts";
import { createQueueDashboard, type DashboardHandler } from "./queue-dashboard.ts";

export interface RedisDashboardOptions {
  readonly redisUrl: string;
  readonly credentials: DashboardCredentials;
  readonly queueName?: string;
  readonly replyQueueName?: string;
  /** Where a lost connection is reported (ioredis reconnects by itself). */
  readonly onConnectionError?: (error: Error) => void;
}

export interface RedisDashboard {
  readonly handler: DashboardHandler;
  close(): Promise<void>;
}

export function openRedisDashboard(options: RedisDashboardOptions): RedisDashboard {
  const connection = new Redis(options.redisUrl, { maxRetriesPerRequest: 1 });
  connection.on("error", (error: Error) => options.onConnectionError?.(error));
  // The reviews, and the replies in Loupe's threads (each its own BullMQ queue).
  const queues = [
    new Queue(options.queueName ?? REVIEW_QUEUE_NAME, { connection }),
    new Queue(options.replyQueueName ?? REPLY_QUEUE_NAME, { connection }),
  ];
  return {
    handler: createQueueDashboard({ queues, credentials: options.credentials }),
    async close() {
      await Promise.all(queues.map((queue) => queue.close()));
      connection.disconnect();
    },
  };
}
