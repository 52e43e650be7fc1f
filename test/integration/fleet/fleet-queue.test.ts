// The fleet's queue in this process against a real redis-server, with a runner the test holds and
// releases: the one-process rules as Redis keeps them (delivery ids, reviewed SHAs, pending and
// running heads) and the order in which installations get their turn.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { GitHubAppReview, ReviewRequest } from "../../../src/domain/review-request.ts";
import { createRedisQueue } from "../../../src/fleet/redis-queue.ts";
import type { ReviewJob } from "../../../src/jobs/review-job.ts";
import type { JobSettlement, ReviewQueue } from "../../../src/jobs/review-queue.ts";
import { type RedisServer, startRedisServer } from "../../support/redis-server.ts";

let redis: RedisServer;
let deliveries = 0;
const silent = { info: () => {}, warn: () => {} };

function request(over: Partial<ReviewRequest> = {}): ReviewRequest {
  return {
    deliveryId: `d-${++deliveries}`,
    trigger: "pull_request.opened",
    forge: "github",
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

function heldQueue(name: string) {
  const started: Held[] = [];
  const queue: ReviewQueue = createRedisQueue({
    redisUrl: redis.url,
    concurrency: 1,
    queueName: name,
    log: silent,
    announce: async () => null,
    cancel: async () => {},
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
      // Installation 1 opens five pull requests at once, then installation 2 opens two.
      for (const n of [1, 2, 3, 4, 5]) await queue.enqueue(request({ pullNumber: n, installationId: 1 }));
      for (const n of [6, 7]) await queue.enqueue(request({ pullNumber: n, installationId: 2 }));
      for (let i = 1; i <= 7; i++) (await nextStart(i)).release();
      await queue.drain();
      expect(started.map((s) => s.job.request.pullNumber)).toEqual([1, 6, 2, 7, 3, 4, 5]);
    } finally {
      await queue.shutdown(0);
    }
  });
});

describe("a job the previous version queued in Redis", () => {
  it("runs tagged with its forge: GitHub's untagged, GitLab's without its installation id of 0", async () => {
    const { queue, nextStart } = heldQueue("previous");
    try {
      // The previous version's enqueue wrote these payloads under the same keys: its GitHub request
      // had no forge, its GitLab one an installation id of 0 and the `gitlab:` prefix.
      const { forge: _, ...untagged } = request({ pullNumber: 11, installationId: 9 }) as GitHubAppReview;
      const gitLab = { ...request({ pullNumber: 12 }), forge: "gitlab", installationId: 0 };
      expect(await queue.enqueue(untagged as unknown as ReviewRequest)).toBe("queued");
      expect(await queue.enqueue(gitLab as unknown as ReviewRequest)).toBe("queued");
      const first = await nextStart(1);
      expect(first.job.request).toMatchObject({ forge: "github", installationId: 9, pullNumber: 11 });
      first.release();
      const second = await nextStart(2);
      expect(second.job.request).toMatchObject({ forge: "gitlab", pullNumber: 12 });
      expect(second.job.request).not.toHaveProperty("installationId");
      second.release();
      await queue.drain();
      // Their keys are today's: the same heads again are known as reviewed.
      expect(await queue.enqueue(request({ pullNumber: 11, installationId: 9 }))).toBe("already_reviewed");
      const { installationId: __, ...asked } = request({ pullNumber: 12 }) as GitHubAppReview;
      expect(await queue.enqueue({ ...asked, forge: "gitlab" })).toBe("already_reviewed");
    } finally {
      await queue.shutdown(0);
    }
  });
});
