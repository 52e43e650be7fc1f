// The provider gate on both backends: in this process, and in a real redis-server shared by three
// gates standing for three replicas (each with its own connection, as replicas have). At most the
// limit in flight, in arrival order; a lease of a replica that died frees itself when not renewed;
// a back-off set by one is waited out by all; a minute's tokens hold a request back.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createRedisGateBackend, type RedisGateBackend } from "../../../src/fleet/redis-provider-gate.ts";
import { createMemoryGateBackend, type GateLimits } from "../../../src/jobs/memory-provider-gate.ts";
import {
  createProviderGate,
  type GateBackend,
  type GatePass,
  type ProviderGate,
  type ProviderWait,
} from "../../../src/llm/provider-gate.ts";
import { type RedisServer, startRedisServer } from "../../support/redis-server.ts";

let redis: RedisServer;
const opened: RedisGateBackend[] = [];
let fleet = 0;

beforeAll(async () => {
  redis = await startRedisServer();
});

afterAll(async () => {
  for (const backend of opened) backend.close();
  await redis?.stop();
});

const LONG = 60_000;
const timing = (leaseMs: number) => ({ leaseMs, pollMs: 20 });

/** Three gates over one set of counts: three replicas on one Redis, or one process's memory. */
type Replicas = (
  limits: GateLimits,
  leaseMs?: number,
) => Promise<{ gates: ProviderGate[]; backends: GateBackend[] }>;

const onRedis: Replicas = async (limits, leaseMs = LONG) => {
  const prefix = `loupe:test-gate-${fleet++}:`;
  const backends = [0, 1, 2].map(() => {
    const backend = createRedisGateBackend(limits, { redisUrl: redis.url, leaseMs, prefix });
    opened.push(backend);
    return backend;
  });
  // Connected before the test starts, so that no replica's first request waits for its connection.
  await Promise.all(backends.map((backend) => backend.leave("connect")));
  return { backends, gates: backends.map((b, i) => gateOver(b, leaseMs, `replica-${i}`)) };
};

const inMemory: Replicas = async (limits, leaseMs = LONG) => {
  const backend = createMemoryGateBackend(limits, { leaseMs });
  return { backends: [backend], gates: [0, 1, 2].map((i) => gateOver(backend, leaseMs, `thread-${i}`)) };
};

function gateOver(backend: GateBackend, leaseMs: number, name: string): ProviderGate {
  let next = 0;
  return createProviderGate(backend, { timing: timing(leaseMs), newTicket: () => `${name}:${next++}` });
}

async function enter(gate: ProviderGate, options: { tokens?: number; waits?: ProviderWait[] } = {}) {
  const entry = await gate.acquire({
    tokens: options.tokens ?? 10,
    deadline: Date.now() + LONG,
    signal: new AbortController().signal,
    onWait: (wait) => options.waits?.push(wait),
  });
  if (entry.kind !== "granted") throw new Error(`not granted: ${entry.kind}`);
  return entry.pass;
}

describe.each([
  ["in one process", inMemory],
  ["on Redis, three replicas", onRedis],
])("the provider gate %s", (_name, replicas) => {
  it("never lets more than the limit in flight", async () => {
    const { gates } = await replicas({ maxInFlight: 2, tokensPerMinute: null });
    let inFlight = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 9 }, async (_, i) => {
        const pass = await enter(gates[i % 3]!);
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 30));
        inFlight -= 1;
        await pass.release(10);
      }),
    );
    expect(peak).toBe(2);
  });

  it("serves the waiting line in arrival order, whichever replica each request is on", async () => {
    const { gates } = await replicas({ maxInFlight: 1, tokensPerMinute: null });
    const order: number[] = [];
    const request = async (i: number) => {
      const pass = await enter(gates[i % 3]!);
      order.push(i);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await pass.release(10);
    };
    const all = [request(0)];
    // The first holds the place; the rest line up one after another.
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (let i = 1; i < 7; i++) {
      all.push(request(i));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await Promise.all(all);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("makes every holder of the gate wait out a back-off one of them set, and says so", async () => {
    const { gates } = await replicas({ maxInFlight: null, tokensPerMinute: null });
    await gates[0]!.backOff(300);
    const waits: ProviderWait[] = [];
    const asked = Date.now();
    const pass = await enter(gates[2]!, { waits });
    const granted = Date.now();
    await pass.release(0);
    expect(waits[0]).toEqual({ cause: "back_off", seconds: 1 });
    expect(granted - asked).toBeGreaterThanOrEqual(250);
  });

  it("holds a request back while the minute's tokens would pass the limit", async () => {
    const { gates } = await replicas({ maxInFlight: null, tokensPerMinute: 1000 });
    const first = await enter(gates[0]!, { tokens: 900 });
    await first.release(900);
    const waits: ProviderWait[] = [];
    const entry = await gates[1]!.acquire({
      tokens: 200,
      deadline: Date.now() + 200,
      signal: new AbortController().signal,
      onWait: (wait) => waits.push(wait),
    });
    expect(entry.kind).toBe("expired");
    expect(waits.map((w) => w.cause)).toEqual(["tokens_per_minute"]);
    // What fits in the minute still goes.
    const small = await enter(gates[2]!, { tokens: 100 });
    await small.release(100);
  });

  it("ends a wait when its review is cancelled, and keeps no place for it", async () => {
    const { gates } = await replicas({ maxInFlight: 1, tokensPerMinute: null });
    const held = await enter(gates[0]!);
    const controller = new AbortController();
    const waiting = gates[1]!.acquire({ tokens: 1, deadline: Date.now() + LONG, signal: controller.signal });
    controller.abort();
    expect((await waiting).kind).toBe("cancelled");
    await held.release(1);
    const next = await enter(gates[2]!);
    await next.release(1);
  });
});

it("frees the leases of a replica that died holding them once they are not renewed", async () => {
  const { gates, backends } = await onRedis({ maxInFlight: 2, tokensPerMinute: null }, 1000);
  const held: GatePass[] = [await enter(gates[0]!), await enter(gates[0]!)];
  expect(held).toHaveLength(2);
  // The replica is gone (SIGKILL): its connection drops and nothing renews or releases its leases.
  (backends[0] as RedisGateBackend).close();
  const waits: ProviderWait[] = [];
  const pass = await enter(gates[1]!, { waits });
  expect(waits.map((w) => w.cause)).toEqual(["in_flight"]);
  await pass.release(1);
  for (const dead of held) await dead.release(1);
});

it("keeps a lease renewed while its request is in flight, past the lease's time", async () => {
  const { gates } = await onRedis({ maxInFlight: 1, tokensPerMinute: null }, 1000);
  const held = await enter(gates[0]!);
  const entry = await gates[1]!.acquire({
    tokens: 1,
    deadline: Date.now() + 3500,
    signal: new AbortController().signal,
  });
  expect(entry.kind).toBe("expired");
  await held.release(1);
});
