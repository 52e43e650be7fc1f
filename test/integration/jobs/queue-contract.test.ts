// One set of per-pull-request rules, whichever queue runs the reviews: the same scenarios against
// the one process's queue and against the fleet's queue on a real redis-server. Delivery ids are
// taken once; a newer head supersedes the running review and replaces a waiting one (which is
// reported as dropped); the same head is not queued twice, nor reviewed again unless a person
// asks; a re-run waits behind a running review without aborting it.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { CancelReason } from "../../../src/domain/cancel-reason.ts";
import type { GitHubAppReview, ReviewRequest } from "../../../src/domain/review-request.ts";
import { createRedisQueue } from "../../../src/fleet/redis-queue.ts";
import { createReviewQueue } from "../../../src/jobs/queue.ts";
import type { ReviewJob } from "../../../src/jobs/review-job.ts";
import type { JobRunner, JobSettlement, ReviewQueue } from "../../../src/jobs/review-queue.ts";
import { type RedisServer, startRedisServer } from "../../support/redis-server.ts";

let redis: RedisServer;
let deliveries = 0;
let queues = 0;
const A = "a".repeat(40);
const B = "b".repeat(40);

function request(over: Partial<ReviewRequest> = {}): ReviewRequest {
  return {
    deliveryId: `d-${++deliveries}`,
    trigger: "pull_request.synchronize",
    forge: "github",
    installationId: 1,
    owner: "o",
    repo: "r",
    pullNumber: 1,
    headSha: A,
    rerun: false,
    pullRequest: null,
    ...over,
  };
}

interface Held {
  readonly job: ReviewJob;
  readonly signal: AbortSignal;
  release(settlement?: JobSettlement): void;
}

interface Dropped {
  readonly pullNumber: number;
  readonly headSha: string;
  readonly reason: CancelReason;
}

interface Harness {
  readonly queue: ReviewQueue;
  readonly started: Held[];
  readonly dropped: Dropped[];
}

type MakeQueue = (runner: JobRunner, dropped: Dropped[]) => ReviewQueue;

const inProcess: MakeQueue = (runner, dropped) => {
  let runs = 0;
  return createReviewQueue({
    concurrency: 1,
    runner,
    onWaiting: async () => ++runs,
    onDropped: async (job, reason) => {
      dropped.push({ pullNumber: job.request.pullNumber, headSha: job.request.headSha, reason });
    },
  });
};

const onRedis: MakeQueue = (runner, dropped) => {
  let runs = 0;
  return createRedisQueue({
    redisUrl: redis.url,
    concurrency: 1,
    queueName: `contract-${++queues}`,
    log: { info: () => {}, warn: () => {} },
    runner,
    announce: async () => ++runs,
    cancel: async (request, _runId, reason) => {
      dropped.push({ pullNumber: request.pullNumber, headSha: request.headSha, reason });
    },
    timing: { pollMs: 50 },
  });
};

function harness(make: MakeQueue): Harness {
  const started: Held[] = [];
  const dropped: Dropped[] = [];
  const runner: JobRunner = (job, signal) =>
    new Promise<JobSettlement>((resolve) => {
      signal.addEventListener("abort", () => resolve({ remember: false }));
      started.push({ job, signal, release: (s = { remember: true }) => resolve(s) });
    });
  return { queue: make(runner, dropped), started, dropped };
}

/** Polls (bounded) until the condition holds; the queues run on their own timers. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  if (!condition()) throw new Error(`never: ${what}`);
}

beforeAll(async () => {
  redis = await startRedisServer();
});

afterAll(async () => {
  await redis?.stop();
});

describe.each([
  ["the one process's queue", inProcess],
  ["the fleet's queue on Redis", onRedis],
])("%s keeps the per-pull-request rules", (_name, make) => {
  const withQueue = (test: (h: Harness) => Promise<void>) => async () => {
    const h = harness(make);
    try {
      await test(h);
    } finally {
      await h.queue.shutdown(0);
    }
  };

  it(
    "takes a delivery id once",
    withQueue(async ({ queue, started }) => {
      const first = request({ deliveryId: "x" });
      expect(await queue.enqueue(first)).toBe("queued");
      expect(await queue.enqueue({ ...first })).toBe("duplicate_delivery");
      await until(() => started.length === 1, "the review starts");
      started[0]!.release();
      await queue.drain();
    }),
  );

  it(
    "keeps a GitLab merge request apart from the GitHub pull request of the same names (a mirror)",
    withQueue(async ({ queue, started }) => {
      expect(await queue.enqueue(request())).toBe("queued");
      await until(() => started.length === 1, "the pull request's review starts");
      const { installationId: _, ...asked } = request({ headSha: B }) as GitHubAppReview;
      const mergeRequest: ReviewRequest = { ...asked, forge: "gitlab" };
      expect(await queue.enqueue(mergeRequest)).toBe("queued");
      started[0]!.release();
      await until(() => started.length === 2, "the merge request's review starts");
      expect(started[0]!.signal.aborted).toBe(false); // not superseded by the other forge's head
      expect(started[1]!.job.request).toMatchObject({ forge: "gitlab", headSha: B });
      expect(await queue.enqueue({ ...mergeRequest, deliveryId: "again" })).toBe("already_running");
      started[1]!.release();
      await queue.drain();
    }),
  );

  it(
    "supersedes a running review with a newer head, which runs after it",
    withQueue(async ({ queue, started }) => {
      expect(await queue.enqueue(request())).toBe("queued");
      await until(() => started.length === 1, "the first review starts");
      expect(await queue.enqueue(request({ headSha: B }))).toBe("queued");
      await until(() => started[0]!.signal.aborted, "the first review is aborted");
      expect(started[0]!.signal.reason).toEqual({ kind: "superseded", headSha: B });
      await until(() => started.length === 2, "the newer review starts");
      expect(started[1]!.job.request.headSha).toBe(B);
      started[1]!.release();
      await queue.drain();
    }),
  );

  it(
    "queues the same head once, and replaces a waiting review with a newer head, reporting it dropped",
    withQueue(async ({ queue, started, dropped }) => {
      expect(await queue.enqueue(request({ pullNumber: 1 }))).toBe("queued");
      await until(() => started.length === 1, "pull request 1 starts");
      expect(await queue.enqueue(request())).toBe("already_running");
      // Concurrency 1: pull request 2 waits, once per head; a newer head takes its place.
      expect(await queue.enqueue(request({ pullNumber: 2 }))).toBe("queued");
      expect(await queue.enqueue(request({ pullNumber: 2 }))).toBe("already_pending");
      expect(await queue.enqueue(request({ pullNumber: 2, headSha: B }))).toBe("queued");
      await until(() => dropped.length === 1, "the replaced review is reported");
      expect(dropped[0]).toEqual({ pullNumber: 2, headSha: A, reason: { kind: "superseded", headSha: B } });
      started[0]!.release();
      await until(() => started.length === 2, "pull request 2 starts");
      expect(started[1]!.job.request).toMatchObject({ pullNumber: 2, headSha: B });
      started[1]!.release();
      await queue.drain();
    }),
  );

  it(
    "does not review a head again unless a person asks, and forgets a head not to be remembered",
    withQueue(async ({ queue, started }) => {
      await queue.enqueue(request());
      await until(() => started.length === 1, "the review starts");
      started[0]!.release({ remember: true });
      await queue.drain();
      expect(await queue.enqueue(request({ trigger: "pull_request.reopened" }))).toBe("already_reviewed");
      expect(await queue.enqueue(request({ rerun: true, trigger: "check_run.rerequested" }))).toBe("queued");
      await until(() => started.length === 2, "the re-run starts");
      started[1]!.release({ remember: true });
      await queue.drain();
      // A draft skip is not remembered: ready_for_review on the same head gets its review.
      await queue.enqueue(request({ pullNumber: 3 }));
      await until(() => started.length === 3, "pull request 3 starts");
      started[2]!.release({ remember: false });
      await queue.drain();
      expect(await queue.enqueue(request({ pullNumber: 3, trigger: "pull_request.ready_for_review" }))).toBe(
        "queued",
      );
      await until(() => started.length === 4, "pull request 3 starts again");
      started[3]!.release();
      await queue.drain();
    }),
  );

  it(
    "lets a re-run wait behind a running review without aborting it, once",
    withQueue(async ({ queue, started }) => {
      const C = "c".repeat(40);
      await queue.enqueue(request({ headSha: B }));
      await until(() => started.length === 1, "the review starts");
      // The running head itself, asked again: it is being reviewed right now.
      expect(await queue.enqueue(request({ headSha: B, rerun: true }))).toBe("already_running");
      expect(await queue.enqueue(request({ headSha: A, rerun: true }))).toBe("queued");
      expect(await queue.enqueue(request({ headSha: C, rerun: true }))).toBe("already_pending");
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(started[0]!.signal.aborted).toBe(false);
      expect(started).toHaveLength(1);
      started[0]!.release();
      await until(() => started.length === 2, "the re-run starts after it");
      expect(started[1]!.job.request).toMatchObject({ headSha: A, rerun: true });
      started[1]!.release();
      await queue.drain();
    }),
  );
});
