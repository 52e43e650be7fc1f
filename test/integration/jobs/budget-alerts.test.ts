// Alerts before the wall: three replicas (three budget stores on one real redis-server, each with
// its own log) settling reviews of one installation at once. Each of 50, 75, 90 and 100 % is said
// once across the fleet, by whichever replica passed it first; a new period says them again; and
// the gauge shows the share used.

import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { defaultRepoConfig } from "../../../src/config/repo-config-schema.ts";
import type { SpendSettings } from "../../../src/config/spend-config.ts";
import { NO_SPEND } from "../../../src/domain/spend.ts";
import { createRedisBudgetStore, type RedisBudgetStore } from "../../../src/fleet/redis-budget-store.ts";
import { createBudgetAlerts } from "../../../src/jobs/budget-alerts.ts";
import { createMemoryBudgetStore } from "../../../src/jobs/memory-budget-store.ts";
import { createReviewBudget } from "../../../src/jobs/review-budget.ts";
import { createPrometheusMetrics } from "../../../src/metrics/prometheus-metrics.ts";
import { type RedisServer, startRedisServer } from "../../support/redis-server.ts";

let redis: RedisServer;
const stores: RedisBudgetStore[] = [];
const DAY = Date.UTC(2026, 11, 5, 13, 0);
const settings: SpendSettings = {
  caps: [{ scope: "installation", unit: "tokens", period: "day", limit: 100_000 }],
  prices: null,
  hardFactor: 1.5,
};
const spent = (input: number) => ({ ...NO_SPEND, rounds: 1, input_tokens: input, provider_dollars: null });

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  for (const store of stores) store.close();
  await redis?.stop();
});

interface Line {
  readonly obj: Record<string, unknown>;
  readonly msg: string;
}

function replica(now: () => number, prefix: string) {
  const store = createRedisBudgetStore({ redisUrl: redis.url, prefix, now });
  stores.push(store);
  const lines: Line[] = [];
  const log = {
    info: (obj: object, msg: string) => lines.push({ obj: obj as Line["obj"], msg }),
    warn: () => {},
  };
  const metrics = createPrometheusMetrics({ version: "test" }, now);
  const alerts = createBudgetAlerts({ store, log, onUse: (use) => metrics.budgetUsed(use) });
  const budget = createReviewBudget({
    store,
    settings,
    owner: { account: "7", repository: "octo/app", pullRequest: 1 },
    maxTokens: 20_000,
    now,
    alerts,
  });
  return { budget, lines, metrics };
}

async function reviewOn(r: ReturnType<typeof replica>, tokens: number) {
  const admitted = await r.budget.admit({ asked: true, config: defaultRepoConfig() });
  if (admitted.kind !== "admitted") throw new Error(`refused: ${admitted.detail}`);
  await admitted.settle(spent(tokens));
}

/** One review on each replica at once, `count` times over. */
async function waves(fleet: ReturnType<typeof replica>[], count: number, tokens: number) {
  for (let wave = 0; wave < count; wave++) await Promise.all(fleet.map((r) => reviewOn(r, tokens)));
}

const byNumber = (a: unknown, b: unknown) => Number(a) - Number(b);
const thresholds = (lines: readonly Line[]) =>
  lines.filter((l) => l.obj.event === "budget_threshold").map((l) => l.obj.threshold_percent);

it("says each threshold once across three replicas settling at once, and again in the next period", async () => {
  let now = DAY;
  const fleet = [0, 1, 2].map(() => replica(() => now, "loupe:test-alerts:"));
  // Twelve reviews of 9,000 tokens, one on each replica at once, four times: 108,000 tokens in all.
  await waves(fleet, 4, 9_000);
  const said = fleet.flatMap((r) => thresholds(r.lines));
  expect(said.toSorted(byNumber)).toEqual([50, 75, 90, 100]);
  const line = fleet.flatMap((r) => r.lines).find((l) => l.obj.threshold_percent === 90)!;
  expect(line.obj).toMatchObject({
    event: "budget_threshold",
    scope: "installation",
    unit: "tokens",
    period: "day",
    counter: "installation:7:tokens:day:2026-12-05",
    limit: 100_000,
    resets_at: "2026-12-06T00:00:00.000Z",
  });
  expect(Number(line.obj.used)).toBeGreaterThanOrEqual(90_000);
  const gauges = await Promise.all(fleet.map((r) => r.metrics.render()));
  const ratios = gauges.map((g) =>
    Number(
      /loupe_budget_used_ratio\{scope="installation",unit="tokens",period="day"\} ([\d.]+)/.exec(g.body)?.[1],
    ),
  );
  // A settlement counts what reviews still running may spend (as a refusal does): the replica that
  // settled last saw exactly the day's 108,000, the others that and what was still reserved.
  expect(Math.min(...ratios)).toBeCloseTo(1.08, 5);
  for (const ratio of ratios) expect(ratio).toBeGreaterThanOrEqual(1.08);

  // The next day is a new period: 60,000 tokens pass 50 % of it again, said once more (and 75 %
  // too if a settlement saw enough still reserved) — never the same threshold twice.
  now = DAY + 24 * 3600 * 1000;
  await waves(fleet, 2, 10_000);
  const nextDay = fleet
    .flatMap((r) => r.lines)
    .filter((l) => l.obj.counter === "installation:7:tokens:day:2026-12-06")
    .map((l) => l.obj.threshold_percent);
  expect(nextDay).toContain(50);
  expect(new Set(nextDay).size).toBe(nextDay.length);
  expect(thresholds(fleet.flatMap((r) => r.lines))).toHaveLength(4 + nextDay.length);
}, 60_000);

it("says each threshold once in one process too, over its own store", async () => {
  const store = createMemoryBudgetStore({ stateDir: null, now: () => DAY });
  const lines: Line[] = [];
  const log = {
    info: (obj: object, msg: string) => lines.push({ obj: obj as Line["obj"], msg }),
    warn: () => {},
  };
  const alerts = createBudgetAlerts({ store, log });
  const budget = createReviewBudget({
    store,
    settings,
    owner: { account: "7", repository: "octo/app", pullRequest: 1 },
    maxTokens: 20_000,
    now: () => DAY,
    alerts,
  });
  for (const tokens of [30_000, 30_000, 20_000]) {
    const admitted = await budget.admit({ asked: true, config: defaultRepoConfig() });
    if (admitted.kind !== "admitted") throw new Error("refused");
    await admitted.settle(spent(tokens));
  }
  // 30 %, 60 % (50 said), 80 % (75 said): 90 and 100 not yet passed.
  expect(thresholds(lines)).toEqual([50, 75]);
  expect(lines[0]!.msg).toBe("budget passed 50 % of its cap");
});
