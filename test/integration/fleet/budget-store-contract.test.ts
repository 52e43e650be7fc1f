// One budget rule, whichever store counts: the single process's (in memory, saved under the
// state directory) and the fleet's (a Lua script on a real redis-server). A reservation takes up
// to what the review may use and no less than it needs, within every counter; a settlement gives
// back what was not spent; reviews racing for the last of a cap — three replicas' connections at
// once — never get more than the cap together.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type BudgetCap, type BudgetStore, countersFor } from "../../../src/domain/budget.ts";
import { createRedisBudgetStore, type RedisBudgetStore } from "../../../src/fleet/redis-budget-store.ts";
import { createMemoryBudgetStore } from "../../../src/jobs/memory-budget-store.ts";
import { type RedisServer, startRedisServer } from "../../support/redis-server.ts";

let redis: RedisServer;
const opened: RedisBudgetStore[] = [];
let installations = 0;

beforeAll(async () => {
  redis = await startRedisServer();
});

afterAll(async () => {
  for (const store of opened) store.close();
  await redis?.stop();
});

const NOW = Date.UTC(2026, 11, 5, 13, 0);
const tokensPerDay = (limit: number): BudgetCap => ({
  scope: "installation",
  unit: "tokens",
  period: "day",
  limit,
});
const dollarsPerMonth = (limit: number): BudgetCap => ({
  scope: "installation",
  unit: "dollars",
  period: "month",
  limit,
});

const stores: [string, () => BudgetStore[]][] = [
  [
    "one process",
    () => {
      const store = createMemoryBudgetStore({ stateDir: null, now: () => NOW });
      return [store, store, store];
    },
  ],
  [
    "the fleet's Redis",
    () => {
      const three = [0, 1, 2].map(() => createRedisBudgetStore({ redisUrl: redis.url, now: () => NOW }));
      opened.push(...three);
      return three;
    },
  ],
];

describe.each(stores)("the budget in %s", (_name, make) => {
  const owner = () => ({ account: String(++installations), repository: "o/r" });

  it("grants up to the review's budget, then what is left, then refuses below the minimum", async () => {
    const [store] = make();
    const counters = countersFor([tokensPerDay(100_000)], owner(), NOW);
    expect(await store!.reserve(counters, { min: 20_000, max: 60_000 }, 0)).toEqual({
      kind: "granted",
      tokens: 60_000,
    });
    expect(await store!.reserve(counters, { min: 20_000, max: 60_000 }, 0)).toEqual({
      kind: "granted",
      tokens: 40_000,
    });
    const refused = await store!.reserve(counters, { min: 20_000, max: 60_000 }, 0);
    expect(refused).toMatchObject({ kind: "refused", spent: 100_000 });
    expect(refused.kind === "refused" && refused.counter.key).toBe(counters[0]!.key);
  });

  it("gives back what a review did not spend", async () => {
    const [store] = make();
    const counters = countersFor([tokensPerDay(50_000)], owner(), NOW);
    await store!.reserve(counters, { min: 20_000, max: 50_000 }, 0);
    await store!.adjust(counters, [12_000 - 50_000]);
    expect(await store!.reserve(counters, { min: 20_000, max: 50_000 }, 0)).toEqual({
      kind: "granted",
      tokens: 38_000,
    });
  });

  it("counts dollar caps at the given price per token", async () => {
    const [store] = make();
    // $1 a month at $10 per million tokens: 100,000 tokens.
    const counters = countersFor([tokensPerDay(1_000_000), dollarsPerMonth(1)], owner(), NOW);
    expect(await store!.reserve(counters, { min: 1_000, max: 500_000 }, 10 / 1_000_000)).toEqual({
      kind: "granted",
      tokens: 100_000,
    });
    const refused = await store!.reserve(counters, { min: 1_000, max: 500_000 }, 10 / 1_000_000);
    expect(refused.kind === "refused" && refused.counter.cap.unit).toBe("dollars");
  });

  it("never grants more than the cap to reviews racing from three replicas", async () => {
    const replicas = make();
    const counters = countersFor([tokensPerDay(100_000)], owner(), NOW);
    const racing = Array.from({ length: 30 }, (_, i) =>
      replicas[i % 3]!.reserve(counters, { min: 20_000, max: 30_000 }, 0),
    );
    const grants = await Promise.all(racing);
    const granted = grants.reduce((sum, g) => sum + (g.kind === "granted" ? g.tokens : 0), 0);
    expect(granted).toBeLessThanOrEqual(100_000);
    expect(granted).toBeGreaterThanOrEqual(100_000 - 20_000);
    expect(grants.filter((g) => g.kind === "granted").length).toBeLessThanOrEqual(5);
  });
});

it("one process's counts survive a restart through the state directory", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-budget-"));
  try {
    const counters = countersFor([tokensPerDay(50_000)], { account: "1", repository: "o/r" }, NOW);
    const first = createMemoryBudgetStore({ stateDir: dir, now: () => NOW });
    await first.reserve(counters, { min: 10_000, max: 40_000 }, 0);
    const restarted = createMemoryBudgetStore({ stateDir: dir, now: () => NOW });
    expect(await restarted.reserve(counters, { min: 10_000, max: 40_000 }, 0)).toEqual({
      kind: "granted",
      tokens: 10_000,
    });
    // The next day's counter starts at nothing.
    const tomorrow = NOW + 86_400_000;
    const next = countersFor([tokensPerDay(50_000)], { account: "1", repository: "o/r" }, tomorrow);
    const later = createMemoryBudgetStore({ stateDir: dir, now: () => tomorrow });
    expect(await later.reserve(next, { min: 10_000, max: 40_000 }, 0)).toEqual({
      kind: "granted",
      tokens: 40_000,
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

it("the fleet's counters end with their period on the caller's clock, not on Redis's", async () => {
  // A period that ends 150 ms from the caller's "now": whatever the date is on Redis's own clock,
  // the counter lives until then and not a moment longer.
  const owner = { account: String(++installations), repository: "o/r" };
  const periodEnd = countersFor([tokensPerDay(50_000)], owner, NOW)[0]!.resetsAt;
  const late = periodEnd - 150;
  const store = createRedisBudgetStore({ redisUrl: redis.url, now: () => late });
  opened.push(store);
  const counters = countersFor([tokensPerDay(50_000)], owner, late);
  expect(await store.reserve(counters, { min: 10_000, max: 50_000 }, 0)).toEqual({
    kind: "granted",
    tokens: 50_000,
  });
  expect((await store.reserve(counters, { min: 10_000, max: 50_000 }, 0)).kind).toBe("refused");
  await new Promise((resolve) => setTimeout(resolve, 400));
  expect(await store.reserve(counters, { min: 10_000, max: 50_000 }, 0)).toEqual({
    kind: "granted",
    tokens: 50_000,
  });
});
