// The review ports of the App's server: the same ports as default-ports.ts, run in a repository
// worker (serve-work.ts) instead of this thread. The fetch leases a worker and the workspace stays
// in it; the loops and the plan are calls to that worker with the workspace's number; disposing
// of the workspace gives the worker back. The pipeline still sequences every step, and GitHub,
// the check run and the progress stay here: a round the worker reports is passed on as it comes.
//
// Each call is held to a deadline (worker-thread.ts): the fetch to the fetch's own bound, a loop
// to its time budget, the plan — which has no budget of its own — to the grace alone. A worker
// stopped for memory or time ends the review with that reason: a loop answers a result that says
// it, and the fetch and the plan, which have no result to carry it, throw a LoupeError of that code.

import { parseConfigLayer } from "../config/repo-config.ts";
import type { ReviewLimits } from "../config/review-limits.ts";
import { LoupeError } from "../domain/errors.ts";
import { TERMINATION_SENTENCES } from "../domain/outcome.ts";
import type { LoopClock } from "../llm/loop-limits.ts";
import type { RoundProgress } from "../llm/types.ts";
import type { ReviewPorts } from "../pipeline/review-ports.ts";
import { stoppedRecord } from "../pipeline/stopped-review.ts";
import { FETCH_TIMEOUT_MS } from "../workspace/fetch-timeout.ts";
import type { WorkspaceHandle } from "../workspace/types.ts";
import { crossing, type WorkRequest } from "./protocol.ts";
import type { WorkerLease, WorkerPool } from "./worker-pool.ts";
import type { StopReason } from "./worker-thread.ts";

/** A workspace that lives in a repository worker: the lease on that worker and its number there. */
export interface IsolatedWorkspace extends WorkspaceHandle {
  readonly lease: WorkerLease;
  readonly id: number;
}

export interface IsolatedPortsOptions {
  readonly pool: WorkerPool;
  readonly limits: ReviewLimits;
  readonly replyLimits: ReviewLimits;
}

export function createIsolatedPorts(options: IsolatedPortsOptions): ReviewPorts<IsolatedWorkspace> {
  const { pool, limits, replyLimits } = options;
  return {
    parseRepoConfig: parseConfigLayer,
    reviewTimeoutMs: limits.timeoutMs,
    replyTimeoutMs: replyLimits.timeoutMs,
    fetchWorkspace: async ({ signal, ...input }) => {
      const lease = await pool.acquire(signal);
      try {
        const fetched = await lease.call({ kind: "fetch", input }, { allowedMs: FETCH_TIMEOUT_MS, signal });
        if (fetched.kind === "stopped") throw stoppedError(fetched.reason, signal);
        return workspaceIn(lease, fetched.value);
      } catch (error) {
        lease.release();
        throw error;
      }
    },
    runLoop: async ({ view, signal, onRound, ...input }) => {
      const request = { kind: "review_loop", workspace: view.id, input: crossing(input) } as const;
      // A pass's deadline is its share of the review's time, kept here as for a whole review.
      const allowedMs = input.share?.timeoutMs ?? limits.timeoutMs;
      const ran = await loopIn(view, request, input.clock, { allowedMs, signal, onRound });
      return ran.kind === "done" ? ran.value : { ...ran.record, review: null };
    },
    runReplyLoop: async ({ view, signal, ...input }) => {
      const request = { kind: "reply_loop", workspace: view.id, input: crossing(input) } as const;
      const ran = await loopIn(view, request, input.clock, { allowedMs: replyLimits.timeoutMs, signal });
      return ran.kind === "done" ? ran.value : { ...ran.record, answer: null };
    },
    reviewLimits: limits,
    verifyFinding: async ({ view, signal, ...input }) => {
      const request = { kind: "verify_loop", workspace: view.id, input: crossing(input) } as const;
      const ran = await loopIn(view, request, input.clock, { allowedMs: input.limits.timeoutMs, signal });
      return ran.kind === "done"
        ? ran.value
        : { ...ran.record, answer: null, refutation_proven: false, evidence_quoted: false };
    },
    planReview: async ({ view, ...input }) => {
      const planned = await view.lease.call({ kind: "plan", workspace: view.id, input }, { allowedMs: 0 });
      if (planned.kind === "stopped") throw stoppedError(planned.reason, undefined);
      const { allInBodyText, ...plan } = planned.value;
      return { ...plan, allInBody: () => allInBodyText };
    },
  };
}

function workspaceIn(lease: WorkerLease, id: number): IsolatedWorkspace {
  let disposed: Promise<void> | null = null;
  return {
    lease,
    id,
    // Whatever the worker answers (it may have been stopped meanwhile), the lease ends here.
    dispose: () => {
      disposed ??= lease
        .call({ kind: "dispose", workspace: id }, { allowedMs: 0 })
        .then(() => undefined)
        .finally(() => lease.release());
      return disposed;
    },
  };
}

type LoopRequest = Extract<WorkRequest, { kind: "review_loop" | "reply_loop" | "verify_loop" }>;

/** A loop in the workspace's worker; when stopped, the record of the rounds it reported. */
async function loopIn<R extends LoopRequest>(
  view: IsolatedWorkspace,
  request: R,
  /** The review's clock, which the record of a stopped loop counts its time on. */
  { now }: LoopClock,
  options: { allowedMs: number; signal: AbortSignal; onRound?: (progress: RoundProgress) => void },
) {
  const started = now();
  let last: RoundProgress | null = null;
  const ran = await view.lease.call<R["kind"]>(request as Extract<WorkRequest, { kind: R["kind"] }>, {
    ...options,
    onRound: (progress) => {
      last = progress;
      options.onRound?.(progress);
    },
  });
  if (ran.kind === "done") return ran;
  return { kind: "stopped" as const, record: stoppedRecord(ran.reason, last, now() - started) };
}

/** A fetch or a plan that was stopped: its reason as a LoupeError, or the cancellation as it came. */
function stoppedError(reason: StopReason, signal: AbortSignal | undefined): unknown {
  if (reason === "cancelled")
    return signal?.aborted === true ? signal.reason : new Error("the work was cancelled");
  return new LoupeError(reason, TERMINATION_SENTENCES[reason]);
}
