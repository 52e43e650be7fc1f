// Where spend is counted, chosen like the queues: in Redis when the replicas share one (every
// replica sees every reservation), else in this process and its state directory; and the
// threshold alerts over that same store (its claims say each alert once across the fleet).

import type { BudgetStore } from "../domain/budget.ts";
import { createBudgetAlerts } from "../jobs/budget-alerts.ts";
import { createMemoryBudgetStore } from "../jobs/memory-budget-store.ts";
import type { AppBudget } from "../jobs/review-budget.ts";
import type { JobLogger } from "../log/job-logger.ts";
import type { Metrics } from "../metrics/metrics.ts";
import type { Fleet } from "./fleet.ts";

export function budgetStoreFor(fleet: Fleet | null, stateDir: string | null): BudgetStore {
  return fleet === null
    ? createMemoryBudgetStore({ stateDir })
    : fleet.redis.createRedisBudgetStore({ redisUrl: fleet.redisUrl });
}

/** The operator's budget with where it is counted (unless a store is given) and its alerts. */
export function countedBudget(
  budget: AppBudget | undefined,
  where: {
    readonly fleet: Fleet | null;
    readonly stateDir: string | null;
    readonly log: JobLogger;
    readonly metrics: Metrics;
  },
): { readonly budget?: AppBudget } {
  if (budget === undefined) return {};
  const store = budget.store ?? budgetStoreFor(where.fleet, where.stateDir);
  const alerts = createBudgetAlerts({ store, log: where.log, onUse: (use) => where.metrics.budgetUsed(use) });
  return { budget: { ...budget, store, alerts } };
}
