// The process's share of the model provider, chosen like the queues: in the fleet's Redis when the
// replicas share one (every replica's requests counted together), else in this process. Each
// ticket names its replica, so a lease in Redis says whose it was.

import { randomUUID } from "node:crypto";
import type { ProviderShare } from "../config/provider-share-config.ts";
import { createMemoryGateBackend } from "../jobs/memory-provider-gate.ts";
import {
  createProviderGate,
  DEFAULT_GATE_TIMING,
  type GateObserver,
  type GateTiming,
  type ProviderGate,
} from "../llm/provider-gate.ts";
import type { Fleet } from "./fleet.ts";

export function providerGateFor(
  share: ProviderShare,
  fleet: Fleet | null,
  options: { readonly observer?: GateObserver; readonly timing?: GateTiming } = {},
): ProviderGate {
  const timing = options.timing ?? DEFAULT_GATE_TIMING;
  const backend =
    fleet === null
      ? createMemoryGateBackend(share, { leaseMs: timing.leaseMs })
      : fleet.redis.createRedisGateBackend(share, { redisUrl: fleet.redisUrl, leaseMs: timing.leaseMs });
  const replica = randomUUID();
  let next = 0;
  return createProviderGate(backend, {
    timing,
    ...(options.observer === undefined ? {} : { observer: options.observer }),
    newTicket: () => `${replica}:${next++}`,
  });
}
