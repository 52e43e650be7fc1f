// What crosses between the server's thread and a repository worker (worker-thread.ts, serve-work.ts):
// structured-clone-safe plain data only — no function, signal, class instance or live workspace.
// A workspace stays in the worker that fetched it and is named by a number; a signal becomes a
// `cancel` message; the plan's 422 fallback is rendered before it crosses; an error crosses as its
// name, code, message and stack, redacted on the side that knows the secrets it might quote.

import type { ProviderConfig } from "../config/provider-config.ts";
import type { ReviewLimits } from "../config/review-limits.ts";
import { isLoupeErrorCode, LoupeError } from "../domain/errors.ts";
import { redactSecrets } from "../domain/redact.ts";
import type { FetchWorkspaceInput } from "../host/pull-request-host.ts";
import type { LoopClock } from "../llm/loop-limits.ts";
import type { ThreadReply } from "../llm/reply-schema.ts";
import type { LoopResult, RoundProgress, ToolLoopResult } from "../llm/types.ts";
import type { DependencyName } from "../metrics/metrics.ts";
import type {
  LoopInput,
  PlanInput,
  PlannedReview,
  ReplyLoopInput,
  VerifyInput,
  VerifyResult,
} from "../pipeline/review-ports.ts";
import type { GateCall, GateNews } from "./gate-messages.ts";

/** What a worker is started with (its workerData). */
export interface WorkerSetup {
  /** The API key in it is registered as a secret in the worker too: redaction is per thread. */
  readonly provider: ProviderConfig;
  readonly limits: ReviewLimits;
  readonly replyLimits: ReviewLimits;
  readonly includeTrace: boolean;
  /** The worker's own directory for its workspaces, removed by the pool when the worker ends. */
  readonly tmpRoot: string;
}

/**
 * A loop's input as it crosses: the review's clock as its offset from the machine's, which both
 * threads share, taken at dispatch (a function cannot cross); the worker's clock counts from there.
 */
type Crossing<I, Stays extends keyof I> = Omit<I, Stays | "clock"> & {
  readonly clock: { readonly offsetMs: number; readonly deadline: number };
};

export const crossing = <I extends { readonly clock: LoopClock }>({ clock, ...input }: I) => ({
  ...input,
  clock: { offsetMs: clock.now() - Date.now(), deadline: clock.deadline },
});

export const arrived = <I extends { readonly clock: { offsetMs: number; deadline: number } }>(input: I) => ({
  ...input,
  clock: { now: () => Date.now() + input.clock.offsetMs, deadline: input.clock.deadline },
});

export type WorkRequest =
  | { readonly kind: "fetch"; readonly input: Omit<FetchWorkspaceInput, "signal"> }
  | {
      readonly kind: "review_loop";
      readonly workspace: number;
      readonly input: Crossing<LoopInput, "view" | "signal" | "onRound">;
    }
  | {
      readonly kind: "reply_loop";
      readonly workspace: number;
      readonly input: Crossing<ReplyLoopInput, "view" | "signal">;
    }
  | {
      readonly kind: "verify_loop";
      readonly workspace: number;
      readonly input: Crossing<VerifyInput, "view" | "signal">;
    }
  | { readonly kind: "plan"; readonly workspace: number; readonly input: Omit<PlanInput, "view"> }
  | { readonly kind: "dispose"; readonly workspace: number };

/** The plan with its fallback body already rendered (a function cannot cross). */
export type PlainPlan = Omit<PlannedReview, "allInBody"> & { readonly allInBodyText: string };

/** What each request answers when it is done. */
export interface WorkResults {
  /** The fetched workspace's number in its worker. */
  readonly fetch: number;
  readonly review_loop: LoopResult;
  readonly reply_loop: ToolLoopResult<ThreadReply>;
  readonly verify_loop: VerifyResult;
  readonly plan: PlainPlan;
  readonly dispose: null;
}

export type WorkKind = WorkRequest["kind"];

export type ToWorker =
  | { readonly type: "call"; readonly call: number; readonly request: WorkRequest }
  /** The call's signal was aborted: the worker aborts its own, and the call ends as it would in-process. */
  | { readonly type: "cancel"; readonly call: number }
  | { readonly type: "gate"; readonly id: number; readonly news: GateNews };

export type FromWorker =
  /** Sent once, when the worker has loaded its modules and listens for calls. */
  | { readonly type: "ready" }
  | { readonly type: "round"; readonly call: number; readonly progress: RoundProgress }
  | { readonly type: "tool_call"; readonly tool: string; readonly ok: boolean }
  | { readonly type: "dependency_error"; readonly dependency: DependencyName; readonly kind: string }
  | { readonly type: "gate"; readonly id: number; readonly call: GateCall }
  | { readonly type: "done"; readonly call: number; readonly value: unknown }
  | { readonly type: "failed"; readonly call: number; readonly error: PlainError };

export interface PlainError {
  readonly name: string;
  readonly message: string;
  /** A LoupeError's code; null for any other error. */
  readonly code: string | null;
  readonly stack: string | null;
  readonly cause: PlainError | null;
}

const CAUSE_DEPTH = 2;

/** In the worker: the error as data, redacted with the worker's own registry (the token, the key). */
export function toPlainError(error: unknown, depth = CAUSE_DEPTH): PlainError {
  if (!(error instanceof Error)) {
    return {
      name: "Error",
      message: redactSecrets(`thrown ${typeof error}`),
      code: null,
      stack: null,
      cause: null,
    };
  }
  const code = (error as { code?: unknown }).code;
  return {
    name: error.name,
    message: redactSecrets(error.message),
    code: error instanceof LoupeError && typeof code === "string" ? code : null,
    stack: error.stack === undefined ? null : redactSecrets(error.stack),
    cause: depth > 0 && error.cause !== undefined ? toPlainError(error.cause, depth - 1) : null,
  };
}

/** In the server's thread: a LoupeError again when it was one (the pipeline reads its code). */
export function fromPlainError(plain: PlainError): Error {
  const cause = plain.cause === null ? undefined : fromPlainError(plain.cause);
  const error =
    plain.code !== null && isLoupeErrorCode(plain.code)
      ? new LoupeError(plain.code, plain.message, { cause })
      : new Error(redactSecrets(plain.message), cause === undefined ? undefined : { cause });
  if (!(error instanceof LoupeError)) error.name = plain.name;
  if (plain.stack !== null) error.stack = redactSecrets(plain.stack);
  return error;
}
