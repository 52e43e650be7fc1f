// The reply queue: bounded concurrency, one job per comment while it waits or runs, and a
// shutdown that lets running replies finish for the grace period, then aborts them.

import { describe, expect, it } from "@jest/globals";
import type { ThreadReplyRequest } from "../../../src/replies/handle-comment.ts";
import { createReplyQueue } from "../../../src/replies/reply-queue.ts";

const request = (replyCommentId: number): ThreadReplyRequest => ({
  deliveryId: `d-${replyCommentId}`,
  forge: "github",
  installationId: 1,
  owner: "acme",
  repo: "widgets",
  pullNumber: 7,
  rootCommentId: 1,
  replyCommentId,
});

function gate() {
  let open = (): void => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe("the reply queue", () => {
  it("runs at most `concurrency` replies at once, in order, and drains", async () => {
    const started: number[] = [];
    const gates = new Map<number, ReturnType<typeof gate>>();
    const queue = createReplyQueue({
      concurrency: 2,
      runner: async (r) => {
        started.push(r.replyCommentId);
        const g = gate();
        gates.set(r.replyCommentId, g);
        await g.opened;
      },
    });
    for (const id of [1, 2, 3]) expect(await queue.enqueue(request(id))).toBe("queued");
    expect(started).toEqual([1, 2]);
    expect(queue.stats()).toEqual({ running: 2, pending: 1 });
    gates.get(1)!.open();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([1, 2, 3]);
    gates.get(2)!.open();
    gates.get(3)!.open();
    await queue.drain();
    expect(queue.stats()).toEqual({ running: 0, pending: 0 });
  });

  it("does not queue a comment that is waiting or running again", async () => {
    const g = gate();
    const queue = createReplyQueue({ concurrency: 1, runner: () => g.opened });
    expect(await queue.enqueue(request(1))).toBe("queued");
    expect(await queue.enqueue(request(1))).toBe("duplicate_reply");
    expect(await queue.enqueue(request(2))).toBe("queued");
    expect(await queue.enqueue(request(2))).toBe("duplicate_reply");
    g.open();
    await queue.drain();
  });

  it("a runner that throws is reported and the queue goes on", async () => {
    const errors: unknown[] = [];
    const ran: number[] = [];
    const queue = createReplyQueue({
      concurrency: 1,
      runner: async (r) => {
        ran.push(r.replyCommentId);
        if (r.replyCommentId === 1) throw new Error("boom");
      },
      onRunnerError: (error) => errors.push(error),
    });
    await queue.enqueue(request(1));
    await queue.enqueue(request(2));
    await queue.drain();
    expect(ran).toEqual([1, 2]);
    expect(errors).toHaveLength(1);
  });

  it("shutdown: waiting replies are dropped and reported, running ones aborted after the grace", async () => {
    const dropped: number[] = [];
    const signals: AbortSignal[] = [];
    const queue = createReplyQueue({
      concurrency: 1,
      runner: (_r, signal) => {
        signals.push(signal);
        return new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
      },
      onDropped: (r) => dropped.push(r.replyCommentId),
    });
    await queue.enqueue(request(1));
    await queue.enqueue(request(2));
    await queue.shutdown(0);
    expect(dropped).toEqual([2]);
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(true);
    expect(await queue.enqueue(request(3))).toBe("shutting_down");
    expect(queue.stats()).toEqual({ running: 0, pending: 0 });
  });
});
