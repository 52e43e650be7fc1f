// The provider gate's backend in one process: leases, the waiting line, the minute's tokens and the
// back-off in memory, with the rule the fleet's Redis script applies (fleet/redis-provider-gate.ts):
// the back-off first, then the line's order for a free place, then the minute's tokens.

import {
  createProviderGate,
  type GateBackend,
  type GateTry,
  type ProviderGate,
} from "../llm/provider-gate.ts";

export interface GateLimits {
  /** PROVIDER_MAX_IN_FLIGHT; null: no limit. */
  readonly maxInFlight: number | null;
  /** PROVIDER_TOKENS_PER_MINUTE; null: no limit. */
  readonly tokensPerMinute: number | null;
}

/** A waiter not seen for this long has gone (its replica died while it waited). */
export const WAITER_GONE_MS = 5_000;
export const MINUTE_MS = 60_000;

export function createMemoryGateBackend(
  limits: GateLimits,
  options: { readonly leaseMs: number; readonly now?: () => number },
): GateBackend {
  const now = options.now ?? Date.now;
  const leases = new Map<string, number>();
  /** ticket → [arrived, last seen]; a Map keeps arrival order. */
  const waiters = new Map<string, [number, number]>();
  const minute: { id: string; at: number; tokens: number }[] = [];
  let backOffUntil = 0;

  const forget = (at: number) => {
    for (const [lease, expires] of leases) if (expires <= at) leases.delete(lease);
    for (const [ticket, [, seen]] of waiters) if (seen + WAITER_GONE_MS <= at) waiters.delete(ticket);
    while (minute.length > 0 && minute[0]!.at + MINUTE_MS <= at) minute.shift();
  };

  return {
    async try(ticket, tokens): Promise<GateTry> {
      const at = now();
      forget(at);
      waiters.set(ticket, [waiters.get(ticket)?.[0] ?? at, at]);
      if (backOffUntil > at) return { kind: "wait", cause: "back_off", ms: backOffUntil - at };
      const rank = [...waiters.keys()].indexOf(ticket);
      if (limits.maxInFlight !== null && rank >= limits.maxInFlight - leases.size)
        return { kind: "wait", cause: "in_flight", ms: options.leaseMs };
      const used = minute.reduce((sum, entry) => sum + entry.tokens, 0);
      // A request larger than the whole minute's allowance still goes, alone in an empty minute.
      if (limits.tokensPerMinute !== null && used > 0 && used + tokens > limits.tokensPerMinute)
        return { kind: "wait", cause: "tokens_per_minute", ms: minute[0]!.at + MINUTE_MS - at };
      waiters.delete(ticket);
      leases.set(ticket, at + options.leaseMs);
      minute.push({ id: ticket, at, tokens });
      return { kind: "granted", lease: ticket, tokensInMinute: used + tokens };
    },
    async renew(lease) {
      if (leases.has(lease)) leases.set(lease, now() + options.leaseMs);
    },
    async release(lease, tokens) {
      leases.delete(lease);
      const entry = minute.find((e) => e.id === lease);
      if (entry !== undefined) entry.tokens = tokens;
    },
    async leave(ticket) {
      waiters.delete(ticket);
    },
    async backOff(ms) {
      backOffUntil = Math.max(backOffUntil, now() + ms);
    },
  };
}

/** A gate with no limits in this process: its one use is a back-off its requests share. */
export function unlimitedGate(): ProviderGate {
  const backend = createMemoryGateBackend({ maxInFlight: null, tokensPerMinute: null }, { leaseMs: 60_000 });
  let next = 0;
  return createProviderGate(backend, { newTicket: () => `local:${next++}` });
}
