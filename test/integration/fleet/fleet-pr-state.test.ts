// The fleet's per-pull-request state under contention, on a real redis-server: replicas deciding
// the same pull request at the same moment (each with its own connection) must agree, because a
// decision is applied only if the snapshot the rules decided on is unchanged.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Redis } from "ioredis";
import { createPrState } from "../../../src/fleet/pr-state.ts";
import { type RedisServer, startRedisServer } from "../../support/redis-server.ts";

let redis: RedisServer;
const connections: Redis[] = [];
const target = { owner: "o", repo: "r", pullNumber: 1, forge: "github", installationId: 1 } as const;

/** One state per simulated replica, each on its own connection. */
function replicas(count: number, prefix: string) {
  return Array.from({ length: count }, () => {
    const connection = new Redis(redis.url);
    connections.push(connection);
    return createPrState(connection, { prefix, leaseMs: 60_000 });
  });
}

beforeAll(async () => {
  redis = await startRedisServer();
});

afterAll(async () => {
  for (const connection of connections) connection.disconnect();
  await redis?.stop();
});

describe("deciding one pull request on several replicas at once", () => {
  it("queues one of ten deliveries of the same head; the others see it pending", async () => {
    const states = replicas(10, "same-head:");
    const outcomes = await Promise.all(
      states.map((state, i) =>
        state.decide({
          target,
          jobId: `job-${i}`,
          deliveryId: `d-${i}`,
          headSha: "a".repeat(40),
          rerun: false,
        }),
      ),
    );
    const counts = outcomes.reduce<Record<string, number>>((all, d) => {
      all[d.outcome] = (all[d.outcome] ?? 0) + 1;
      return all;
    }, {});
    expect(counts).toEqual({ queued: 1, already_pending: 9 });
  });

  it("takes one delivery id once, however many replicas receive it", async () => {
    const states = replicas(10, "same-delivery:");
    const outcomes = await Promise.all(
      states.map((state, i) =>
        state.decide({ target, jobId: `job-${i}`, deliveryId: "d", headSha: "b".repeat(40), rerun: false }),
      ),
    );
    expect(outcomes.filter((d) => d.outcome !== "duplicate_delivery")).toHaveLength(1);
  });

  it("lets the newest of ten different heads wait, each replacing the one before", async () => {
    const states = replicas(10, "many-heads:");
    const outcomes = await Promise.all(
      states.map((state, i) =>
        state.decide({
          target,
          jobId: `job-${i}`,
          deliveryId: `d-${i}`,
          headSha: String(i).repeat(40),
          rerun: false,
        }),
      ),
    );
    // Every one queued; each but the first replaced exactly one waiting job, each job once.
    expect(outcomes.every((d) => d.outcome === "queued")).toBe(true);
    const dropped = outcomes.flatMap((d) => (d.outcome === "queued" && d.drop !== null ? [d.drop] : []));
    expect(dropped).toHaveLength(9);
    expect(new Set(dropped).size).toBe(9);
  });
});
