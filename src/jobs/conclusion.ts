// How a finished review concludes its check run. Only Loupe's gate (a finding at or above the
// repository's fail_on) may fail a check; every incomplete review is neutral, because Loupe's own
// trouble (budgets, the provider, bad model output) must never block a merge.

import type { TerminationReason } from "../domain/outcome.ts";
import type { CheckConclusion } from "../report/review-report.ts";

export function conclusionFor(reason: TerminationReason, gateFailed: boolean): CheckConclusion {
  if (reason === "cancelled") return "cancelled";
  if (reason !== "final_review") return "neutral";
  return gateFailed ? "failure" : "success";
}
