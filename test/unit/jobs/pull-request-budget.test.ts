// A cap per pull request, across all its pushes and re-runs: the operator's, tightened by the
// repository's; each pull request counted apart; a push past it refused with what was spent and
// the exact command a writer types to have one more review anyway; and the counter kept 90 days
// after the pull request's last review.

import { describe, expect, it } from "@jest/globals";
import { defaultRepoConfig } from "../../../src/config/repo-config-schema.ts";
import type { SpendSettings } from "../../../src/config/spend-config.ts";
import { SpendSchema } from "../../../src/config/spend-config.ts";
import { capsOf, countersFor, PULL_REQUEST_COUNTER_MS } from "../../../src/domain/budget.ts";
import { NO_SPEND } from "../../../src/domain/spend.ts";
import { createMemoryBudgetStore } from "../../../src/jobs/memory-budget-store.ts";
import { createReviewBudget } from "../../../src/jobs/review-budget.ts";
import { settingsOf } from "../../support/settings.ts";

const NOW = Date.UTC(2026, 11, 5, 13, 0);
const spent = (input: number) => ({ ...NO_SPEND, rounds: 1, input_tokens: input, provider_dollars: null });

function world(env: Record<string, string>) {
  const settings: SpendSettings = settingsOf(SpendSchema, env);
  const store = createMemoryBudgetStore({ stateDir: null, now: () => NOW });
  const forPull = (pullRequest: number) =>
    createReviewBudget({
      store,
      settings,
      owner: { account: "7", repository: "octo/app", pullRequest },
      maxTokens: 30_000,
      now: () => NOW,
    });
  return { forPull };
}

async function review(
  budget: ReturnType<ReturnType<typeof world>["forPull"]>,
  tokens: number,
  config = defaultRepoConfig(),
) {
  const admitted = await budget.admit({ asked: false, config, mention: async () => "loupe-review" });
  if (admitted.kind !== "admitted") return admitted;
  await admitted.settle(spent(tokens));
  return admitted;
}

describe("a pull request's budget", () => {
  it("reads BUDGET_TOKENS_PER_PULL_REQUEST and BUDGET_DOLLARS_PER_PULL_REQUEST (dollars need prices)", () => {
    const settings = settingsOf(SpendSchema, {
      BUDGET_TOKENS_PER_PULL_REQUEST: "80000",
      BUDGET_DOLLARS_PER_PULL_REQUEST: "0.5",
      REVIEW_PRICE_INPUT: "1",
      REVIEW_PRICE_OUTPUT: "2",
    });
    expect(settings.caps).toEqual([
      { scope: "pull_request", unit: "tokens", period: "pull_request", limit: 80_000, setBy: "installation" },
      { scope: "pull_request", unit: "dollars", period: "pull_request", limit: 0.5, setBy: "installation" },
    ]);
  });

  it("refuses a push past the cap with what was spent and the exact command for one more review", async () => {
    const { forPull } = world({ BUDGET_TOKENS_PER_PULL_REQUEST: "50000" });
    const pull = forPull(12);
    expect(await review(pull, 25_000)).toMatchObject({ kind: "admitted", maxTokens: 30_000 });
    // 25,000 used: 25,000 left, enough to start and capped to it.
    expect(await review(pull, 24_000)).toMatchObject({ kind: "admitted", maxTokens: 25_000 });
    const refused = await review(pull, 0);
    expect(refused.kind === "refused" && refused.detail).toBe(
      "Budget reached: This pull request has used 49,000 tokens across all its pushes and re-runs, counting what reviews still running may spend, against a cap of 50,000 tokens (the operator's). Its count is kept for 90 days after its last review. Someone with write access can still start this review with a comment `@loupe-review review` (up to 1.5× the cap).",
    );
    // The next pull request of the same repository starts from nothing.
    expect(await review(forPull(13), 1_000)).toMatchObject({ kind: "admitted", maxTokens: 30_000 });
    // A writer's command goes on, up to the hard factor.
    const asked = await pull.admit({ asked: true, config: defaultRepoConfig() });
    expect(asked).toMatchObject({ kind: "admitted", maxTokens: 26_000 });
  });

  it("takes the repository's cap where it is lower, and never a higher one", async () => {
    const { forPull } = world({ BUDGET_TOKENS_PER_PULL_REQUEST: "50000" });
    const tighter = { ...defaultRepoConfig(), budget: { tokens_per_pull_request: 25_000 } };
    const first = await review(forPull(1), 24_000, tighter);
    expect(first).toMatchObject({ kind: "admitted", maxTokens: 25_000 });
    const refused = await review(forPull(1), 0, tighter);
    expect(refused.kind === "refused" && refused.detail).toContain(
      "against a cap of 25,000 tokens (`budget` in `.github/loupe.yml`)",
    );
    const looser = { ...defaultRepoConfig(), budget: { tokens_per_pull_request: 900_000 } };
    await review(forPull(2), 30_000, looser);
    await review(forPull(2), 19_000, looser);
    const held = await review(forPull(2), 0, looser);
    expect(held.kind === "refused" && held.detail).toContain(
      "against a cap of 50,000 tokens (the operator's)",
    );
  });

  it("keeps one counter per pull request, for 90 days after its last review", () => {
    const caps = capsOf("installation", { tokens_per_pull_request: 10 });
    const [counter] = countersFor(caps, { account: "1", repository: "octo/app", pullRequest: 4 }, NOW);
    expect(counter).toMatchObject({
      key: "pull_request:octo/app#4:tokens",
      resetsAt: NOW + PULL_REQUEST_COUNTER_MS,
    });
    expect(PULL_REQUEST_COUNTER_MS).toBe(90 * 24 * 3600 * 1000);
    // Without a pull request (nothing to count it for), the cap has no counter.
    expect(countersFor(caps, { account: "1", repository: "octo/app" }, NOW)).toEqual([]);
  });
});
