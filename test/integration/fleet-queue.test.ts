// The fleet's queue in this process against a real redis-server, with a runner the test holds and
// releases: the one-process rules as Redis keeps them (delivery ids, reviewed SHAs, pending and
// running heads), the order in which installations get their turn, and the queued check run made
// after the webhook is answered.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { createRedisQueue } from "../../src/fleet/redis-queue.ts";
import type { ReviewJob } from "../../src/jobs/review-job.ts";
import type { JobSettlement, ReviewQueue } from "../../src/jobs/review-queue.ts";
import type { CancelReason, ReviewRequest } from "../../src/jobs/review-request.ts";
import { type RedisServer, startRedisServer } from "../support/redis-server.ts";

let redis: RedisServer;
let deliveries = 0;
const silent = { info: () => {}, warn: () => {} };

function request(over: Partial<ReviewRequest> = {}): ReviewRequest {
  return {
    deliveryId: `d-${++deliveries}`,
    trigger: "pull_request.opened",
    installationId: 1,
    owner: "o",
    repo: "r",
    pullNumber: 1,
    headSha: "a".repeat(40),
    rerun: false,
    pullRequest: null,
    ...over,
  };
}

interface Held {
  readonly job: ReviewJob;
  release(settlement?: JobSettlement): void;
}

function heldQueue(
  name: string,
  ports: {
    announce?: (request: ReviewRequest) => Promise<number | null>;
    cancel?: (request: ReviewRequest, checkRunId: number, reason: CancelReason) => Promise<void>;
  } = {},
) {
  const started: Held[] = [];
  const queue: ReviewQueue = createRedisQueue({
    redisUrl: redis.url,
    concurrency: 1,
    queueName: name,
    log: silent,
    announce: ports.announce ?? (async () => null),
    cancel: ports.cancel ?? (async () => {}),
    runner: (job, signal) =>
      new Promise<JobSettlement>((resolve) => {
        signal.addEventListener("abort", () => resolve({ remember: false }));
        started.push({ job, release: (s = { remember: true }) => resolve(s) });
      }),
  });
  const nextStart = async (count: number) => {
    while (started.length < count) await new Promise((resolve) => setTimeout(resolve, 20));
    return started[count - 1]!;
  };
  return { queue, started, nextStart };
}

/** Resolves once no job of the queue is held back any more (each announced and released). */
async function allReleased(name: string): Promise<void> {
  const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
  const observer = new Queue(name, { connection });
  try {
    while ((await observer.getDelayedCount()) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    await observer.close();
    connection.disconnect();
  }
}

/** A promise and the function that settles it. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

beforeAll(async () => {
  redis = await startRedisServer();
});

afterAll(async () => {
  await redis?.stop();
});

describe("the fleet's queue on Redis", () => {
  it("keeps the one-process rules: delivery ids, pending and reviewed heads, re-runs", async () => {
    const { queue, nextStart } = heldQueue("rules");
    try {
      const first = request({ deliveryId: "x" });
      expect(await queue.enqueue(first)).toBe("queued");
      expect(await queue.enqueue({ ...first })).toBe("duplicate_delivery");
      const running = await nextStart(1);
      expect(await queue.enqueue(request())).toBe("already_running");
      // Another pull request waits behind it (concurrency 1); the same head again is pending.
      expect(await queue.enqueue(request({ pullNumber: 2 }))).toBe("queued");
      expect(await queue.enqueue(request({ pullNumber: 2 }))).toBe("already_pending");
      running.release({ remember: true });
      (await nextStart(2)).release({ remember: false }); // a draft skip: not remembered
      await queue.drain();
      expect(await queue.enqueue(request({ trigger: "pull_request.reopened" }))).toBe("already_reviewed");
      expect(await queue.enqueue(request({ pullNumber: 2 }))).toBe("queued"); // not remembered
      (await nextStart(3)).release();
      expect(await queue.enqueue(request({ rerun: true, trigger: "check_run.rerequested" }))).toBe("queued");
      (await nextStart(4)).release();
      await queue.drain();
    } finally {
      await queue.shutdown(0);
    }
  });

  it("gives every installation's n-th review its turn before any installation's (n+1)-th", async () => {
    const { queue, started, nextStart } = heldQueue("fairness");
    try {
      // Installation 1 opens five pull requests at once, then installation 2 opens two. The first
      // starts at once (concurrency 1); the order of the rest is the queue's, once all are in it.
      await queue.enqueue(request({ pullNumber: 1, installationId: 1 }));
      const first = await nextStart(1);
      for (const n of [2, 3, 4, 5]) await queue.enqueue(request({ pullNumber: n, installationId: 1 }));
      for (const n of [6, 7]) await queue.enqueue(request({ pullNumber: n, installationId: 2 }));
      await allReleased("fairness");
      first.release();
      for (let i = 2; i <= 7; i++) (await nextStart(i)).release();
      await queue.drain();
      expect(started.map((s) => s.job.request.pullNumber)).toEqual([1, 6, 2, 7, 3, 4, 5]);
    } finally {
      await queue.shutdown(0);
    }
  });

  it("answers before the queued check run is made, and runs the job only once it is, with its id", async () => {
    const announcing = deferred<number | null>();
    const events: string[] = [];
    const { queue, nextStart } = heldQueue("announce", {
      announce: async () => {
        events.push("announce asked");
        const id = await announcing.promise;
        events.push("announced");
        return id;
      },
    });
    try {
      // GitHub paces an installation's writes a second apart: the webhook must not wait for it.
      expect(await queue.enqueue(request({ pullNumber: 9 }))).toBe("queued");
      events.push("answered");
      announcing.resolve(77);
      const held = await nextStart(1);
      expect(events).toEqual(["announce asked", "answered", "announced"]);
      expect(held.job.checkRun).toEqual({ id: 77, headSha: "a".repeat(40) });
      held.release();
      await queue.drain();
    } finally {
      await queue.shutdown(0);
    }
  });

  it("a job superseded while its queued check run is made: that run is cancelled for the newer head", async () => {
    const runs = new Map<string, ReturnType<typeof deferred<number | null>>>();
    /** The queued check run of a head: the test says when GitHub has made it, and its id. */
    const runOf = (headSha: string) => {
      const run = runs.get(headSha) ?? deferred<number | null>();
      runs.set(headSha, run);
      return run;
    };
    const cancelled: { headSha: string; checkRunId: number; reason: CancelReason }[] = [];
    const { queue, nextStart } = heldQueue("announce-superseded", {
      announce: (r) => runOf(r.headSha).promise,
      cancel: async (r, checkRunId, reason) => {
        cancelled.push({ headSha: r.headSha, checkRunId, reason });
      },
    });
    const [older, newer] = ["b".repeat(40), "c".repeat(40)];
    try {
      // Another pull request runs, so both pushes of pull request 3 wait behind it.
      await queue.enqueue(request({ pullNumber: 2 }));
      runOf("a".repeat(40)).resolve(null);
      const busy = await nextStart(1);
      expect(await queue.enqueue(request({ pullNumber: 3, headSha: older }))).toBe("queued");
      expect(await queue.enqueue(request({ pullNumber: 3, headSha: newer }))).toBe("queued");
      runOf(older).resolve(41); // made after its job was dropped for the newer push
      runOf(newer).resolve(42);
      await allReleased("announce-superseded");
      while (cancelled.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(cancelled).toEqual([
        { headSha: older, checkRunId: 41, reason: { kind: "superseded", headSha: newer } },
      ]);
      busy.release();
      const next = await nextStart(2);
      expect(next.job.request.headSha).toBe(newer);
      expect(next.job.checkRun).toEqual({ id: 42, headSha: newer });
      next.release();
      await queue.drain();
    } finally {
      await queue.shutdown(0);
    }
  });
});
