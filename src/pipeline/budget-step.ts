// The spend a review may make, asked for once the review is known to be worth doing (after the
// settings, the author and the change) and before anything is fetched: the host's budget grants
// the review its tokens, or refuses it with the reason. What the review spent is given back to the
// budget when it ends, however it ends. Hosts without budgets (the CLI) pass none.

import type { RepoConfig } from "../config/repo-config-schema.ts";
import { NO_SPEND, type Spend } from "../domain/spend.ts";
import { type ReviewOutcome, skipped } from "./review-outcome.ts";

export type Admission =
  | {
      readonly kind: "admitted";
      /** The most tokens the review may use (its own token budget, or less when caps are near). */
      readonly maxTokens: number;
      /** Settles the reservation with what was really spent; called once. */
      readonly settle: (spend: Spend) => Promise<void>;
    }
  | { readonly kind: "refused"; readonly detail: string };

export interface BudgetRequest {
  readonly asked: boolean;
  /** The repository's own caps (`budget` in its settings). */
  readonly config: Pick<RepoConfig, "budget">;
  /** The handle commands mention, looked up only for a refusal that says what to type. */
  readonly mention?: () => Promise<string>;
}

export interface ReviewBudget {
  admit(input: BudgetRequest): Promise<Admission>;
}

/** A reservation held for the rest of the review: settled on disposal with the last spend seen. */
export interface HeldBudget extends AsyncDisposable {
  readonly kind: "budget";
  readonly maxTokens: number | null;
  /** Records the spend so far (every round reports it). */
  spent(spend: Spend): void;
}

const UNLIMITED: HeldBudget = {
  kind: "budget",
  maxTokens: null,
  spent: () => {},
  [Symbol.asyncDispose]: async () => {},
};

export async function budgetStep(
  budget: ReviewBudget | undefined,
  input: BudgetRequest,
): Promise<HeldBudget | ReviewOutcome> {
  if (budget === undefined) return UNLIMITED;
  const admission = await budget.admit(input);
  // Not remembered as reviewed: the next push, or the same head after the reset, tries again.
  if (admission.kind === "refused") return skipped("budget_reached", admission.detail, false);
  let last: Spend = NO_SPEND;
  return {
    kind: "budget",
    maxTokens: admission.maxTokens,
    spent: (spend) => {
      last = spend;
    },
    [Symbol.asyncDispose]: () => admission.settle(last),
  };
}
