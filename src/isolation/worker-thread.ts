// One repository worker, seen from the server's thread: a `node:worker_threads` Worker with heap
// limits, and calls to it that end however the worker does. Each call has a deadline kept by this
// thread — its budget plus a grace — so a worker stuck in synchronous work (which no timer or
// signal inside it can interrupt) is terminated all the same; a cancelled call is asked to stop,
// and terminated if it has not after the grace. A worker over its heap limit is ended by V8
// (ERR_WORKER_OUT_OF_MEMORY). Either way its calls end with a named reason, and the pool replaces it.

import { Worker } from "node:worker_threads";
import type { WorkerStopReason } from "../domain/outcome.ts";
import type { ProviderGate } from "../llm/provider-gate.ts";
import type { RoundProgress } from "../llm/types.ts";
import type { DependencyName } from "../metrics/metrics.ts";
import { hostGate } from "./gate-host.ts";
import {
  type FromWorker,
  fromPlainError,
  type ToWorker,
  type WorkerSetup,
  type WorkKind,
  type WorkRequest,
  type WorkResults,
} from "./protocol.ts";

/** Why a worker's call ended without an answer: stopped for memory or time, or cancelled. */
export type StopReason = WorkerStopReason | "cancelled";

export type CallOutcome<T> =
  | { readonly kind: "done"; readonly value: T }
  | { readonly kind: "stopped"; readonly reason: StopReason };

export interface CallOptions {
  /** The work's own time budget; the worker is terminated once it and the grace have passed. */
  readonly allowedMs: number;
  readonly signal?: AbortSignal;
  readonly onRound?: (progress: RoundProgress) => void;
}

export interface WorkerThreadOptions {
  readonly entry: URL;
  readonly setup: WorkerSetup;
  readonly memoryMb: number;
  readonly graceMs: number;
  readonly onToolCall: (tool: string, ok: boolean) => void;
  readonly onDependencyError?: (dependency: DependencyName, kind: string) => void;
  /** The process's one share of the provider, asked by the worker's model requests. */
  readonly gate: ProviderGate;
  /** Told once when the worker has ended, with the reason it was stopped (null: it failed or was closed). */
  readonly onExit: (reason: StopReason | null) => void;
}

export interface WorkerThread {
  call<K extends WorkKind>(
    request: Extract<WorkRequest, { kind: K }>,
    options: CallOptions,
  ): Promise<CallOutcome<WorkResults[K]>>;
  alive(): boolean;
  /** Settles once the worker has loaded its modules (true), or has ended before it did (false). */
  ready(): Promise<boolean>;
  /** Ends the worker (at shutdown); its calls end as cancelled. */
  close(): Promise<void>;
}

interface Pending {
  readonly settle: (outcome: CallOutcome<unknown> | Error) => void;
  readonly onRound: ((progress: RoundProgress) => void) | undefined;
}

/**
 * The grace after a budget: a tenth of the review's time budget, between 2 and 30 seconds (enough
 * for a loop that stops cooperatively at its own deadline to answer, small next to the budget).
 */
export function deadlineGraceMs(reviewTimeoutMs: number): number {
  return Math.min(30_000, Math.max(2_000, Math.round(reviewTimeoutMs / 10)));
}

/** V8's limits: the heap as the operator set it, a young generation in proportion, Node's stack. */
export function resourceLimitsFor(memoryMb: number) {
  return {
    maxOldGenerationSizeMb: memoryMb,
    maxYoungGenerationSizeMb: Math.min(48, Math.max(8, Math.floor(memoryMb / 8))),
    stackSizeMb: 4,
  };
}

export function startWorkerThread(options: WorkerThreadOptions): WorkerThread {
  const worker = new Worker(options.entry, {
    workerData: options.setup,
    resourceLimits: resourceLimitsFor(options.memoryMb),
    env: workerEnvironment(process.env),
  });
  // An idle worker does not keep the process alive; a call in flight does, through its deadline.
  worker.unref();
  const pending = new Map<number, Pending>();
  let nextCall = 1;
  let stopped: StopReason | null = null;
  let failure: Error | null = null;
  let exited = false;
  const loaded = Promise.withResolvers<boolean>();
  const gate = hostGate(options.gate, (id, news) => {
    if (!exited) worker.postMessage({ type: "gate", id, news } satisfies ToWorker);
  });
  const stop = (reason: StopReason): void => {
    stopped ??= reason;
    void worker.terminate();
  };
  worker.on("message", (message: FromWorker) => {
    if (message.type === "ready") return loaded.resolve(true);
    if (message.type === "tool_call") return options.onToolCall(message.tool, message.ok);
    if (message.type === "gate") return gate.handle(message.id, message.call);
    if (message.type === "dependency_error")
      return options.onDependencyError?.(message.dependency, message.kind);
    const call = pending.get(message.call);
    if (message.type === "round") return call?.onRound?.(message.progress);
    pending.delete(message.call);
    call?.settle(
      message.type === "done" ? { kind: "done", value: message.value } : fromPlainError(message.error),
    );
  });
  worker.on("error", (error: Error & { code?: string }) => {
    if (error.code === "ERR_WORKER_OUT_OF_MEMORY") stopped ??= "worker_out_of_memory";
    else failure ??= error;
  });
  worker.on("exit", (code) => {
    exited = true;
    loaded.resolve(false);
    gate.close();
    const ending = (): CallOutcome<unknown> | Error =>
      stopped !== null
        ? { kind: "stopped", reason: stopped }
        : (failure ?? new Error(`the repository worker exited unexpectedly (exit code ${code})`));
    for (const call of pending.values()) call.settle(ending());
    pending.clear();
    options.onExit(stopped);
  });
  return {
    alive: () => !exited,
    ready: () => loaded.promise,
    close: async () => {
      stop("cancelled");
      await worker.terminate();
    },
    call: (request, callOptions) => {
      if (exited) return Promise.resolve({ kind: "stopped", reason: stopped ?? "cancelled" });
      const id = nextCall++;
      return new Promise((resolve, reject) => {
        const deadline = setTimeout(() => stop("worker_timeout"), callOptions.allowedMs + options.graceMs);
        let cancelled: NodeJS.Timeout | undefined;
        const onAbort = (): void => {
          worker.postMessage({ type: "cancel", call: id } satisfies ToWorker);
          // Past the review's own deadline (its signal is a timeout's), a worker that does not
          // stop within the grace is stuck, as one past the call's budget is: not cancelled.
          const stuck = deadlineReached(callOptions.signal) ? "worker_timeout" : "cancelled";
          cancelled = setTimeout(() => stop(stuck), options.graceMs);
        };
        callOptions.signal?.addEventListener("abort", onAbort, { once: true });
        pending.set(id, {
          onRound: callOptions.onRound,
          settle: (outcome) => {
            clearTimeout(deadline);
            clearTimeout(cancelled);
            callOptions.signal?.removeEventListener("abort", onAbort);
            if (outcome instanceof Error) reject(outcome);
            else resolve(outcome as CallOutcome<WorkResults[typeof request.kind]>);
          },
        });
        worker.postMessage({ type: "call", call: id, request } satisfies ToWorker);
        if (callOptions.signal?.aborted === true) onAbort();
      });
    },
  };
}

/** The signal fired for a deadline (AbortSignal.timeout's reason), not for a cancellation. */
function deadlineReached(signal: AbortSignal | undefined): boolean {
  return (signal?.reason as { name?: unknown } | undefined)?.name === "TimeoutError";
}

// The worker reads repository content: it gets no credential through its environment. The
// provider key and the installation token reach it only in the messages that need them.
const WORKER_ENVIRONMENT = /^(PATH|HOME|TMPDIR|TMP|TEMP|LANG|LC_[A-Z_]+|TZ|NODE_[A-Z_]+|[A-Z_]*_PROXY)$/i;

function workerEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && WORKER_ENVIRONMENT.test(name)) kept[name] = value;
  }
  return kept;
}
