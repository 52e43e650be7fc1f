// The fleet's queue answers a webhook as soon as the job is durable and decided, not after the
// queued check run is made (GitHub paces an installation's writes one a second): the run is made
// afterwards, and the job runs on it. When Redis cannot take the job, the refusal names Redis.
// A real redis-server; the check-run writes are held by the test.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { ReviewRequest } from "../../../src/domain/review-request.ts";
import { createRedisQueue } from "../../../src/fleet/redis-queue.ts";
import { QueueUnavailableError } from "../../../src/jobs/queue-unavailable.ts";
import type { ReviewJob } from "../../../src/jobs/review-job.ts";
import type { JobSettlement } from "../../../src/jobs/review-queue.ts";
import { freePort } from "../../support/loupe-process.ts";
import { type RedisServer, startRedisServer } from "../../support/redis-server.ts";

let redis: RedisServer;
let deliveries = 0;
const silent = { info: () => {}, warn: () => {} };

const request = (pullNumber: number): ReviewRequest => ({
  deliveryId: `d-${++deliveries}`,
  trigger: "pull_request.opened",
  forge: "github",
  installationId: 1,
  owner: "o",
  repo: "r",
  pullNumber,
  headSha: "a".repeat(40),
  rerun: false,
  pullRequest: null,
});

beforeAll(async () => {
  redis = await startRedisServer();
});

afterAll(async () => {
  await redis?.stop();
});

describe("a webhook into the fleet's queue", () => {
  it("is answered before its queued check run is made; the job then runs on that run", async () => {
    const writes: { pullNumber: number; made: (id: number) => void }[] = [];
    const started: ReviewJob[] = [];
    const queue = createRedisQueue({
      redisUrl: redis.url,
      concurrency: 5,
      queueName: "announce-later",
      log: silent,
      // GitHub's pacing, held by the test: no queued run is made until it says so.
      announce: (r) => new Promise<number | null>((made) => writes.push({ pullNumber: r.pullNumber, made })),
      cancel: async () => {},
      runner: async (job): Promise<JobSettlement> => {
        started.push(job);
        return { remember: true };
      },
      timing: { enqueueTimeoutMs: 2_000 },
    });
    try {
      for (const n of [1, 2, 3]) expect(await queue.enqueue(request(n))).toBe("queued");
      expect(started).toEqual([]); // each job waits for its announcement's write, which is in flight
      while (writes.length < 3) await new Promise((resolve) => setTimeout(resolve, 20));
      for (const write of writes) write.made(100 + write.pullNumber);
      while (started.length < 3) await new Promise((resolve) => setTimeout(resolve, 20));
      await queue.drain();
      const runs = started.map((job) => [job.request.pullNumber, job.checkRun?.id, job.findOpenRun ?? false]);
      expect(runs.sort()).toEqual([
        [1, 101, false],
        [2, 102, false],
        [3, 103, false],
      ]);
    } finally {
      await queue.shutdown(0);
    }
  });

  it("with Redis away is refused with a 503 that names Redis's address", async () => {
    const port = await freePort(); // nothing listens there
    const queue = createRedisQueue({
      redisUrl: `redis://:secret@127.0.0.1:${port}`,
      concurrency: 1,
      queueName: "away",
      log: silent,
      announce: async () => null,
      cancel: async () => {},
      runner: async () => ({ remember: true }),
      timing: { enqueueTimeoutMs: 300 },
    });
    try {
      const refused = await queue.enqueue(request(1)).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(QueueUnavailableError);
      expect((refused as QueueUnavailableError).status).toBe(503);
      expect((refused as Error).message).toBe(
        `the review queue cannot take work now: Redis at 127.0.0.1:${port} did not answer`,
      );
    } finally {
      await queue.shutdown(0);
    }
  });
});
