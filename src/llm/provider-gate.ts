// The port every model request passes through before it is sent: a fleet-wide share of the
// provider. A request asks for a pass (one of at most PROVIDER_MAX_IN_FLIGHT, with room under
// PROVIDER_TOKENS_PER_MINUTE, and no back-off under way), holds it while in flight, and gives it
// back with the tokens it really used; a 429 with Retry-After makes every holder of the same gate
// wait that long. Where the counts live (this process, or the fleet's Redis) is the backend's
// business; the waiting — in arrival order, within the request's own deadline — is this file's.

import { abortableSleep } from "./abortable-sleep.ts";

/** Why a request is waiting for the provider (told to its review's progress). */
export type ProviderWaitCause = "in_flight" | "tokens_per_minute" | "back_off";

export interface ProviderWait {
  readonly cause: ProviderWaitCause;
  /** Whole seconds until it may go, when known (a back-off, a minute's tokens); else null. */
  readonly seconds: number | null;
}

export interface GatePass {
  /** Gives the pass back, counting `tokens` (what the request really used) in the minute's spend. */
  release(tokens: number): Promise<void>;
}

export type GateEntry =
  | { readonly kind: "granted"; readonly pass: GatePass }
  /** The request's deadline came, or its review was cancelled, before its turn. */
  | { readonly kind: "expired" | "cancelled" };

export interface GateRequest {
  /** The tokens the request is expected to use (counted until the real figure is known). */
  readonly tokens: number;
  readonly deadline: number;
  readonly signal: AbortSignal;
  /** Told when the request starts waiting, and again when the cause changes. */
  readonly onWait?: (wait: ProviderWait) => void;
}

export interface ProviderGate {
  acquire(request: GateRequest): Promise<GateEntry>;
  /** Every request through this gate waits `ms` from now (the provider's Retry-After). */
  backOff(ms: number): Promise<void>;
}

/** One try at the head of the line: granted with a lease, or told how long to wait and why. */
export type GateTry =
  | { readonly kind: "granted"; readonly lease: string; readonly tokensInMinute: number }
  | { readonly kind: "wait"; readonly cause: ProviderWaitCause; readonly ms: number };

/**
 * Where the leases, the waiting line, the minute's tokens and the back-off are kept. A lease
 * expires unless renewed, so a replica killed while holding one cannot keep its place for ever; a
 * waiter not seen for a while leaves the line for the same reason.
 */
export interface GateBackend {
  try(ticket: string, tokens: number): Promise<GateTry>;
  renew(lease: string): Promise<void>;
  release(lease: string, tokens: number): Promise<void>;
  leave(ticket: string): Promise<void>;
  backOff(ms: number): Promise<void>;
}

/** What the gate tells the process's metrics. */
export interface GateObserver {
  waiting(delta: 1 | -1): void;
  tokensInMinute(tokens: number): void;
  backOff(seconds: number): void;
}

export interface GateTiming {
  /** A lease not renewed within this is taken for a dead replica's and freed. */
  readonly leaseMs: number;
  /** How often a waiting request tries again at most (a back-off or a minute's tokens may say later). */
  readonly pollMs: number;
}

export const DEFAULT_GATE_TIMING: GateTiming = { leaseMs: 30_000, pollMs: 100 };

/** Rough size of a request in tokens (four characters each), before the provider counts it. */
export function estimateTokens(body: unknown): number {
  return Math.ceil(JSON.stringify(body).length / 4);
}

export function createProviderGate(
  backend: GateBackend,
  options: {
    readonly timing?: GateTiming;
    readonly observer?: GateObserver;
    readonly newTicket: () => string;
  },
): ProviderGate {
  const timing = options.timing ?? DEFAULT_GATE_TIMING;
  const observer = options.observer;
  return {
    async acquire({ tokens, deadline, signal, onWait }) {
      const ticket = options.newTicket();
      let cause: ProviderWaitCause | null = null;
      try {
        for (;;) {
          if (signal.aborted) return { kind: "cancelled" };
          const remaining = deadline - Date.now();
          if (remaining <= 0) return { kind: "expired" };
          const tried = await backend.try(ticket, tokens);
          if (tried.kind === "granted") {
            observer?.tokensInMinute(tried.tokensInMinute);
            return { kind: "granted", pass: heldPass(backend, tried.lease, timing.leaseMs) };
          }
          if (cause !== tried.cause) {
            if (cause === null) observer?.waiting(1);
            cause = tried.cause;
            const seconds = tried.cause === "in_flight" ? null : Math.ceil(tried.ms / 1000);
            onWait?.({ cause, seconds });
          }
          // A back-off or a minute's tokens that end after the deadline cannot be waited out.
          if (tried.cause !== "in_flight" && tried.ms >= remaining) return { kind: "expired" };
          const pause = Math.max(1, Math.min(tried.ms, timing.pollMs, remaining));
          if (!(await abortableSleep(pause, signal))) return { kind: "cancelled" };
        }
      } finally {
        if (cause !== null) observer?.waiting(-1);
        await backend.leave(ticket).catch(() => {});
      }
    },
    async backOff(ms) {
      observer?.backOff(ms / 1000);
      await backend.backOff(ms);
    },
  };
}

/** A granted lease, renewed while the request is in flight, given back once. */
function heldPass(backend: GateBackend, lease: string, leaseMs: number): GatePass {
  const renewal = setInterval(() => void backend.renew(lease).catch(() => {}), Math.max(1, leaseMs / 3));
  renewal.unref();
  let released: Promise<void> | null = null;
  return {
    release(tokens) {
      clearInterval(renewal);
      released ??= backend.release(lease, tokens).catch(() => {});
      return released;
    },
  };
}
