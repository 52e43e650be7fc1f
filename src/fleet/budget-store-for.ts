// Where spend is counted, chosen like the queues: in Redis when the replicas share one (every
// replica sees every reservation), else in this process and its state directory.

import type { BudgetStore } from "../domain/budget.ts";
import { createMemoryBudgetStore } from "../jobs/memory-budget-store.ts";
import { createRedisBudgetStore } from "./redis-budget-store.ts";

export function budgetStoreFor(redisUrl: string | null, stateDir: string | null): BudgetStore {
  return redisUrl === null ? createMemoryBudgetStore({ stateDir }) : createRedisBudgetStore({ redisUrl });
}
