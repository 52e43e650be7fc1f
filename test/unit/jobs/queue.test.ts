import { describe, expect, it } from "@jest/globals";
import type { ReviewRequest } from "../../../src/domain/review-request.ts";
import { createReviewQueue, type QueueTimers } from "../../../src/jobs/queue.ts";
import type { JobSettlement } from "../../../src/jobs/review-queue.ts";

function request(over: Partial<ReviewRequest> = {}): ReviewRequest {
  return {
    deliveryId: `d-${Math.random()}`,
    trigger: "pull_request.synchronize",
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

interface Started {
  readonly request: ReviewRequest;
  /** The queued check run the job was handed (the fake numbers them 101, 102, …). */
  readonly checkRunId: number | null;
  readonly signal: AbortSignal;
  finish(settlement?: JobSettlement): void;
}

interface Reported {
  readonly waiting: string[];
  readonly dropped: string[];
  /** Resolves the oldest unresolved onDropped promise. */
  settleDrop(): void;
}

const label = (r: ReviewRequest) => `#${r.pullNumber}@${r.headSha.slice(0, 1)}`;

function harness(concurrency = 2) {
  const started: Started[] = [];
  const reported: Reported & { resolvers: Array<() => void> } = {
    waiting: [],
    dropped: [],
    resolvers: [],
    settleDrop: () => reported.resolvers.shift()?.(),
  };
  const timers: Array<{ fn: () => void; ms: number; cleared: boolean }> = [];
  const fakeTimers: QueueTimers = {
    setTimeout: (fn, ms) => {
      const t = { fn, ms, cleared: false };
      timers.push(t);
      return t;
    },
    clearTimeout: (h) => {
      (h as { cleared: boolean }).cleared = true;
    },
  };
  const queue = createReviewQueue({
    concurrency,
    timers: fakeTimers,
    memory: 3,
    runner: (job, signal) =>
      new Promise<JobSettlement>((resolve) => {
        // A real job completes its check run once it sees the abort; this one settles at once.
        signal.addEventListener("abort", () => resolve({ remember: false }));
        const checkRunId = job.checkRun?.id ?? null;
        started.push({
          request: job.request,
          checkRunId,
          signal,
          finish: (s = { remember: true }) => resolve(s),
        });
      }),
    onWaiting: async (req) => 100 + reported.waiting.push(label(req)),
    onDropped: (job, reason) => {
      reported.dropped.push(
        `${label(job.request)} run ${job.checkRun?.id ?? "none"} ${reason.kind === "superseded" ? `by ${reason.headSha.slice(0, 1)}` : reason.kind}`,
      );
      return new Promise<void>((resolve) => reported.resolvers.push(resolve));
    },
  });
  return { queue, started, timers, reported };
}

const flush = () => new Promise((r) => setImmediate(r));

async function finishAll(queue: { stats(): { running: number; pending: number } }, started: Started[]) {
  while (queue.stats().running + queue.stats().pending > 0) {
    for (const job of started) job.finish();
    await flush();
  }
}

describe("review queue", () => {
  it("answers a request that has to wait before its queued check run is made (GitHub paces writes)", async () => {
    const queue = createReviewQueue({
      concurrency: 1,
      runner: (_job, signal) =>
        new Promise<JobSettlement>((resolve) =>
          signal.addEventListener("abort", () => resolve({ remember: false })),
        ),
      onWaiting: () => new Promise<number | null>(() => {}), // the write never completes
    });
    const outcomes = [];
    for (const n of [1, 2, 3]) outcomes.push(await queue.enqueue(request({ pullNumber: n })));
    expect(outcomes).toEqual(["queued", "queued", "queued"]);
    expect(queue.stats()).toEqual({ running: 1, pending: 2 });
  });

  it("runs one job per pull request and supersedes it with a newer head SHA", async () => {
    const { queue, started } = harness();
    expect(await queue.enqueue(request({ headSha: "a".repeat(40) }))).toBe("queued");
    expect(started).toHaveLength(1);
    expect(await queue.enqueue(request({ headSha: "b".repeat(40) }))).toBe("queued");
    expect(started[0]!.signal.aborted).toBe(true);
    expect(started[0]!.signal.reason).toEqual({ kind: "superseded", headSha: "b".repeat(40) });
    // the newer job waits for the older one to finish cancelling (one job per PR at a time)
    expect(started).toHaveLength(1);
    await flush();
    expect(started).toHaveLength(2);
    expect(started[1]!.request.headSha).toBe("b".repeat(40));
    started[1]!.finish();
    await queue.drain();
  });

  it("does not review the same SHA twice unless a re-run was asked", async () => {
    const { queue, started } = harness();
    queue.enqueue(request());
    expect(await queue.enqueue(request())).toBe("already_running");
    started[0]!.finish({ remember: true });
    await queue.drain();
    expect(await queue.enqueue(request({ trigger: "pull_request.reopened" }))).toBe("already_reviewed");
    expect(await queue.enqueue(request({ rerun: true, trigger: "check_run.rerequested" }))).toBe("queued");
    expect(started).toHaveLength(2);
    started[1]!.finish();
    await queue.drain();
  });

  it("forgets a SHA whose job asked not to be remembered (a draft skip)", async () => {
    const { queue, started } = harness();
    queue.enqueue(request());
    started[0]!.finish({ remember: false });
    await queue.drain();
    expect(await queue.enqueue(request({ trigger: "pull_request.ready_for_review" }))).toBe("queued");
    started[1]!.finish();
    await queue.drain();
  });

  it("ignores a redelivered webhook (same delivery id), with bounded memory", async () => {
    const { queue, started } = harness();
    expect(await queue.enqueue(request({ deliveryId: "x", pullNumber: 1 }))).toBe("queued");
    expect(await queue.enqueue(request({ deliveryId: "x", pullNumber: 1, rerun: true }))).toBe(
      "duplicate_delivery",
    );
    for (const n of [2, 3, 4]) queue.enqueue(request({ deliveryId: `y${n}`, pullNumber: 10 + n }));
    await finishAll(queue, started);
    // memory is 3: the first delivery id has been forgotten by now
    expect(await queue.enqueue(request({ deliveryId: "x", pullNumber: 1, rerun: true }))).toBe("queued");
    await finishAll(queue, started);
  });

  it("never runs more than `concurrency` jobs and keeps FIFO order", async () => {
    const { queue, started } = harness(2);
    for (const n of [1, 2, 3, 4]) queue.enqueue(request({ pullNumber: n }));
    expect(started.map((s) => s.request.pullNumber)).toEqual([1, 2]);
    expect(queue.stats()).toEqual({ running: 2, pending: 2 });
    started[1]!.finish();
    await flush();
    expect(started.map((s) => s.request.pullNumber)).toEqual([1, 2, 3]);
    started[0]!.finish();
    started[2]!.finish();
    await flush();
    started[3]!.finish();
    await queue.drain();
    expect(queue.stats()).toEqual({ running: 0, pending: 0 });
  });

  it("lets a re-run wait behind a running push without aborting it", async () => {
    const { queue, started } = harness();
    queue.enqueue(request({ headSha: "b".repeat(40) }));
    expect(await queue.enqueue(request({ headSha: "a".repeat(40), rerun: true }))).toBe("queued");
    expect(started[0]!.signal.aborted).toBe(false);
    expect(await queue.enqueue(request({ headSha: "c".repeat(40), rerun: true }))).toBe("already_pending");
    started[0]!.finish();
    await flush();
    expect(started[1]!.request.headSha).toBe("a".repeat(40));
    started[1]!.finish();
    await queue.drain();
  });

  it("on shutdown stops taking work, drops waiting jobs and aborts running ones after the grace", async () => {
    const { queue, started, timers, reported } = harness(1);
    queue.enqueue(request({ pullNumber: 1 }));
    queue.enqueue(request({ pullNumber: 2 }));
    const down = queue.shutdown(5000);
    expect(await queue.enqueue(request({ pullNumber: 3 }))).toBe("shutting_down");
    expect(timers).toHaveLength(1);
    expect(timers[0]!.ms).toBe(5000);
    expect(started[0]!.signal.aborted).toBe(false);
    timers[0]!.fn();
    await flush(); // the drop is reported once its queued run's id is known
    reported.settleDrop();
    await down;
    expect(started[0]!.signal.reason).toEqual({ kind: "shutdown" });
    expect(started).toHaveLength(1);
    expect(queue.stats()).toEqual({ running: 0, pending: 0 });
  });

  it("on shutdown does not abort a job that finishes within the grace", async () => {
    const { queue, started, timers } = harness(1);
    queue.enqueue(request());
    const down = queue.shutdown(5000);
    started[0]!.finish();
    await down;
    expect(started[0]!.signal.aborted).toBe(false);
    expect(timers[0]!.cleared).toBe(true);
  });

  it("keeps going when a runner rejects", async () => {
    const errors: unknown[] = [];
    const queue = createReviewQueue({
      concurrency: 1,
      runner: async () => {
        throw new Error("boom");
      },
      onRunnerError: (e) => errors.push(e),
    });
    queue.enqueue(request({ pullNumber: 1 }));
    queue.enqueue(request({ pullNumber: 2 }));
    await queue.drain();
    expect(errors).toHaveLength(2);
  });

  it("announces only requests that must wait, and reports each one that leaves without running", async () => {
    const { queue, started, reported } = harness(1);
    queue.enqueue(request({ pullNumber: 1 }));
    expect(reported.waiting).toEqual([]); // started at once: nothing to announce
    queue.enqueue(request({ pullNumber: 2, headSha: "a".repeat(40) }));
    queue.enqueue(request({ pullNumber: 3, headSha: "a".repeat(40) }));
    expect(reported.waiting).toEqual(["#2@a", "#3@a"]);
    // A newer push for a waiting pull request replaces it in the line.
    queue.enqueue(request({ pullNumber: 2, headSha: "b".repeat(40) }));
    expect(reported.waiting).toEqual(["#2@a", "#3@a", "#2@b"]);
    await flush();
    expect(reported.dropped).toEqual(["#2@a run 101 by b"]); // its queued run, closed
    // A re-run for a waiting pull request neither replaces it nor is announced.
    expect(await queue.enqueue(request({ pullNumber: 3, headSha: "c".repeat(40), rerun: true }))).toBe(
      "already_pending",
    );
    expect(reported.waiting).toHaveLength(3);
    // drain waits for the drop to be reported, not only for the jobs.
    let drained = false;
    const draining = queue.drain().then(() => {
      drained = true;
    });
    await finishAll(queue, started);
    expect(started.map((job) => label(job.request))).toEqual(["#1@a", "#3@a", "#2@b"]);
    // Each waiting job is handed the queued check run announced for it; #1 never waited.
    expect(started.map((job) => job.checkRunId)).toEqual([null, 102, 103]);
    await flush();
    expect(drained).toBe(false);
    reported.settleDrop();
    await draining;
    expect(drained).toBe(true);
  });

  it("on shutdown reports every waiting request as dropped, and waits for the reports", async () => {
    const { queue, started, reported } = harness(1);
    queue.enqueue(request({ pullNumber: 1 }));
    queue.enqueue(request({ pullNumber: 2 }));
    queue.enqueue(request({ pullNumber: 3 }));
    let down = false;
    const stopping = queue.shutdown(5000).then(() => {
      down = true;
    });
    await flush();
    expect(reported.dropped).toEqual(["#2@a run 101 shutdown", "#3@a run 102 shutdown"]);
    started[0]!.finish();
    await flush();
    expect(down).toBe(false);
    reported.settleDrop();
    reported.settleDrop();
    await stopping;
    expect(started).toHaveLength(1);
  });

  it("keeps going when reporting a dropped request fails", async () => {
    const queue = createReviewQueue({
      concurrency: 1,
      runner: (_request, signal) =>
        new Promise<JobSettlement>((resolve) =>
          signal.addEventListener("abort", () => resolve({ remember: false })),
        ),
      onDropped: () => Promise.reject(new Error("GitHub is down")),
    });
    queue.enqueue(request({ pullNumber: 1 }));
    queue.enqueue(request({ pullNumber: 2 }));
    await queue.shutdown(0);
    expect(queue.stats()).toEqual({ running: 0, pending: 0 });
  });
});
