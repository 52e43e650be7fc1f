// The queue of reply jobs. Replies are not reviews: there is no per-pull-request supersede (two
// questions in two threads are two answers), so they get a plain bounded-concurrency queue of
// their own and never wait behind, or cancel, a review. A comment already waiting or running is
// not queued twice; one answered earlier is stopped by Loupe's reply-to marker (locate-reply.ts).
// At shutdown running replies may finish for the grace period, then they are aborted; waiting
// ones are dropped (their webhook was answered, so they are logged, and the person can ask again).

import { shutDown } from "../jobs/shutdown.ts";
import type { JobLogger } from "../log/job-logger.ts";
import type { ThreadReplyRequest } from "./handle-comment.ts";

export type ReplyEnqueueOutcome = "queued" | "duplicate_reply" | "shutting_down";

export interface ReplyQueue {
  enqueue(request: ThreadReplyRequest): Promise<ReplyEnqueueOutcome>;
  /** Resolves when nothing runs and nothing waits. */
  drain(): Promise<void>;
  shutdown(graceMs: number): Promise<void>;
  stats(): { readonly running: number; readonly pending: number };
}

export type ReplyRunner = (request: ThreadReplyRequest, signal: AbortSignal) => Promise<unknown>;

export interface ReplyQueueOptions {
  readonly concurrency: number;
  readonly runner: ReplyRunner;
  readonly onDropped?: (request: ThreadReplyRequest) => void;
  readonly onRunnerError?: (error: unknown, request: ThreadReplyRequest) => void;
  /** Where the shutdown says what it stopped; silent by default. */
  readonly log?: JobLogger;
}

export function replyKey(request: ThreadReplyRequest): string {
  return `${request.owner}/${request.repo}#${request.replyCommentId}`;
}

export function createReplyQueue(options: ReplyQueueOptions): ReplyQueue {
  const waiting: ThreadReplyRequest[] = [];
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let closed = false;
  let idleWaiters: (() => void)[] = [];

  const settle = () => {
    if (running.size > 0 || waiting.length > 0) return;
    const resolvers = idleWaiters;
    idleWaiters = [];
    for (const resolve of resolvers) resolve();
  };
  const pump = () => {
    while (!closed && running.size < options.concurrency && waiting.length > 0) {
      const request = waiting.shift()!;
      const controller = new AbortController();
      const key = replyKey(request);
      const done = options
        .runner(request, controller.signal)
        .then(
          () => {},
          (error: unknown) => options.onRunnerError?.(error, request),
        )
        .finally(() => {
          running.delete(key);
          pump();
          settle();
        });
      running.set(key, { controller, done });
    }
  };
  const idle = () =>
    running.size === 0 && waiting.length === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => idleWaiters.push(resolve));
  return {
    async enqueue(request) {
      if (closed) return "shutting_down";
      const key = replyKey(request);
      if (running.has(key) || waiting.some((w) => replyKey(w) === key)) return "duplicate_reply";
      waiting.push(request);
      pump();
      return "queued";
    },
    drain: idle,
    shutdown: async (graceMs) => {
      await shutDown(
        {
          name: "replies",
          reason: { kind: "shutdown" },
          stopTaking: () => {
            closed = true;
            for (const request of waiting.splice(0)) options.onDropped?.(request);
            settle();
          },
          running: () => running.size,
          idle,
          stopRunning: (reason) => {
            for (const { controller } of running.values()) controller.abort(reason);
          },
          close: async () => {},
        },
        graceMs,
        options.log ?? { info: () => {}, warn: () => {} },
      );
    },
    stats: () => ({ running: running.size, pending: waiting.length }),
  };
}
