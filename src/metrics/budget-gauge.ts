// The gauge `loupe_budget_used_ratio`: for each scope, unit and period, the highest share of its
// cap that any budget counter this replica settled holds now. Counters are kept until their period
// ends, and only the latest few thousand (a pull request's lives 90 days), so the gauge stays small
// and no label names an installation, repository or pull request.

import { Gauge, type Registry } from "prom-client";
import type { BudgetUse } from "./metrics.ts";

const BUDGET_USES_KEPT = 10_000;

export function createBudgetGauge(
  registry: Registry,
  now: () => number = Date.now,
): (use: BudgetUse) => void {
  const uses = new Map<string, BudgetUse>();
  new Gauge({
    name: "loupe_budget_used_ratio",
    help: "The highest share of a budget cap used (1 = the cap) among the counters this replica settled, by scope (installation, repository, pull_request), unit and period; a counter leaves when its period ends",
    labelNames: ["scope", "unit", "period"] as const,
    registers: [registry],
    collect() {
      this.reset();
      const highest = new Map<string, BudgetUse>();
      for (const [key, use] of uses) {
        if (use.resetsAt <= now()) {
          uses.delete(key);
          continue;
        }
        const labels = `${use.scope}/${use.unit}/${use.period}`;
        if ((highest.get(labels)?.ratio ?? -1) < use.ratio) highest.set(labels, use);
      }
      for (const use of highest.values())
        this.set({ scope: use.scope, unit: use.unit, period: use.period }, use.ratio);
    },
  });
  return (use) => {
    uses.delete(use.key);
    uses.set(use.key, use);
    if (uses.size > BUDGET_USES_KEPT) uses.delete(uses.keys().next().value!);
  };
}
