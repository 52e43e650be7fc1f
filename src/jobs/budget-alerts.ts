// Alerts before the wall: when a budget counter — an installation's, a repository's or a pull
// request's — passes 50, 75, 90 or 100 % of its cap in a period, one log line
// `event: "budget_threshold"` says so, once per threshold and period across the whole fleet (the
// store's claim is an atomic SET NX in Redis), and the gauge of the share used is updated.

import type { BudgetCounter, BudgetStore } from "../domain/budget.ts";
import type { JobLogger } from "../log/job-logger.ts";
import type { BudgetUse } from "../metrics/metrics.ts";

export const BUDGET_THRESHOLDS = [50, 75, 90, 100] as const;

export interface BudgetAlerts {
  /** What each counter now holds: the share of its cap used, said at each threshold it passed. */
  observe(counters: readonly BudgetCounter[], held: readonly number[]): Promise<void>;
}

export function createBudgetAlerts(options: {
  readonly store: BudgetStore;
  readonly log: JobLogger;
  readonly onUse?: (use: BudgetUse) => void;
}): BudgetAlerts {
  const { store, log } = options;
  return {
    async observe(counters, held) {
      for (const [i, counter] of counters.entries()) {
        const { cap } = counter;
        const used = held[i] ?? 0;
        // The share of the cap itself, not of the hard factor's allowance a writer's review had.
        const ratio = used / cap.limit;
        options.onUse?.({ ...pick(counter), key: counter.key, ratio, resetsAt: counter.resetsAt });
        for (const threshold of BUDGET_THRESHOLDS) {
          if (ratio * 100 < threshold) break;
          if (!(await store.claim(`alert:${counter.key}:${threshold}`, counter.resetsAt))) continue;
          log.info(
            {
              event: "budget_threshold",
              threshold_percent: threshold,
              scope: cap.scope,
              unit: cap.unit,
              period: cap.period,
              counter: counter.key,
              used,
              limit: cap.limit,
              resets_at: new Date(counter.resetsAt).toISOString(),
            },
            `budget passed ${threshold} % of its cap`,
          );
        }
      }
    },
  };
}

function pick(counter: BudgetCounter) {
  return { scope: counter.cap.scope, unit: counter.cap.unit, period: counter.cap.period };
}
