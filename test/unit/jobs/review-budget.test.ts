// The App's budget for one review over the single process's store: the repository's own caps on
// top of the installation's, a person's request allowed past the caps up to the hard factor, what
// a refusal says, and a settlement that counts the real spend (and its cost) instead of the
// reservation.

import { describe, expect, it } from "@jest/globals";
import { defaultRepoConfig } from "../../../src/config/repo-config-schema.ts";
import type { SpendSettings } from "../../../src/config/spend-config.ts";
import { countersFor } from "../../../src/domain/budget.ts";
import { NO_SPEND } from "../../../src/domain/spend.ts";
import { createMemoryBudgetStore } from "../../../src/jobs/memory-budget-store.ts";
import { createReviewBudget } from "../../../src/jobs/review-budget.ts";

const NOW = Date.UTC(2026, 11, 5, 13, 0);
const owner = { account: "7", repository: "octo/app" };
const settings = (over: Partial<SpendSettings> = {}): SpendSettings => ({
  caps: [{ scope: "installation", unit: "tokens", period: "day", limit: 100_000 }],
  prices: null,
  hardFactor: 1.5,
  ...over,
});
const spent = (input: number, output = 0) => ({
  ...NO_SPEND,
  rounds: 1,
  input_tokens: input,
  output_tokens: output,
  provider_dollars: null,
});

function budget(over: Partial<SpendSettings> = {}) {
  const store = createMemoryBudgetStore({ stateDir: null, now: () => NOW });
  return {
    store,
    budget: createReviewBudget({ store, settings: settings(over), owner, maxTokens: 60_000, now: () => NOW }),
  };
}

describe("a review's budget", () => {
  it("reserves the review's own budget, settles its real spend, and refuses below the minimum", async () => {
    const { budget: b } = budget();
    const first = await b.admit({ asked: false, config: defaultRepoConfig() });
    expect(first).toMatchObject({ kind: "admitted", maxTokens: 60_000 });
    if (first.kind !== "admitted") throw new Error("admitted");
    await first.settle(spent(70_000, 5_000));
    // 75,000 used: 25,000 left, enough to start (20,000) and capped to what is left.
    expect(await b.admit({ asked: false, config: defaultRepoConfig() })).toMatchObject({ maxTokens: 25_000 });
  });

  it("gives the exact command to copy, with the App's handle, when it refuses an automatic review", async () => {
    const { budget: b } = budget();
    const first = await b.admit({ asked: false, config: defaultRepoConfig() });
    if (first.kind !== "admitted") throw new Error("admitted");
    await first.settle(spent(90_000));
    const refused = await b.admit({
      asked: false,
      config: defaultRepoConfig(),
      mention: async () => "loupe-review",
    });
    expect(refused.kind === "refused" && refused.detail).toContain(
      "Someone with write access can still start this review with a comment `@loupe-review review` (up to 1.5× the cap).",
    );
    expect(refused.kind === "refused" && refused.detail).not.toContain("mentioning Loupe");
  });

  it("says what was used, the cap, its source and when it resets; a writer may go to 1.5×", async () => {
    const { budget: b } = budget();
    const first = await b.admit({ asked: false, config: defaultRepoConfig() });
    if (first.kind !== "admitted") throw new Error("admitted");
    await first.settle(spent(90_000));
    const refused = await b.admit({ asked: false, config: defaultRepoConfig() });
    expect(refused.kind === "refused" && refused.detail).toBe(
      "Budget reached: This installation has used 90,000 tokens today (UTC), counting what reviews still running may spend, against a cap of 100,000 tokens (the operator's). It starts again at 2026-12-06 00:00 UTC. Someone with write access can still start this review with a `review` command mentioning Loupe (up to 1.5× the cap).",
    );
    expect(await b.admit({ asked: true, config: defaultRepoConfig() })).toMatchObject({
      kind: "admitted",
      maxTokens: 60_000,
    });
    const past = await b.admit({ asked: true, config: defaultRepoConfig() });
    expect(past.kind === "refused" && past.detail).toMatch(/would go past that\.$/);
  });

  it("counts a repository's own caps for it alone, and refuses in its terms", async () => {
    const { budget: b, store } = budget({ caps: [] });
    const config = { ...defaultRepoConfig(), budget: { tokens_per_month: 30_000 } };
    const first = await b.admit({ asked: false, config });
    expect(first).toMatchObject({ kind: "admitted", maxTokens: 30_000 });
    if (first.kind !== "admitted") throw new Error("admitted");
    await first.settle(spent(25_000));
    const refused = await b.admit({ asked: false, config });
    expect(refused.kind === "refused" && refused.detail).toContain(
      "This repository has used 25,000 tokens this month (UTC)",
    );
    expect(refused.kind === "refused" && refused.detail).toContain("(`budget` in `.github/loupe.yml`)");
    expect(refused.kind === "refused" && refused.detail).toContain(
      "It starts again at 2027-01-01 00:00 UTC.",
    );
    // Another repository of the installation is not held by it.
    const other = createReviewBudget({
      store,
      settings: settings({ caps: [] }),
      owner: { ...owner, repository: "octo/other" },
      maxTokens: 60_000,
      now: () => NOW,
    });
    expect(await other.admit({ asked: false, config })).toMatchObject({ kind: "admitted" });
  });

  it("settles dollar caps with the review's priced cost", async () => {
    const prices = { input: 10, cachedInput: 10, output: 10 };
    const { budget: b, store } = budget({
      caps: [{ scope: "installation", unit: "dollars", period: "day", limit: 1 }],
      prices,
    });
    const first = await b.admit({ asked: false, config: defaultRepoConfig() });
    // $1 at $10 per million: 100,000 tokens fit, the review's own 60,000 are reserved.
    expect(first).toMatchObject({ kind: "admitted", maxTokens: 60_000 });
    if (first.kind !== "admitted") throw new Error("admitted");
    await first.settle(spent(50_000));
    // $0.50 spent: $0.50 left is 50,000 tokens.
    const counters = countersFor(
      settings({ caps: [{ scope: "installation", unit: "dollars", period: "day", limit: 1 }] }).caps,
      owner,
      NOW,
    );
    expect(await store.reserve(counters, { min: 1, max: 1_000_000 }, 10 / 1_000_000)).toEqual({
      kind: "granted",
      tokens: 50_000,
    });
  });
});

describe("a repository's share of the installation's caps (BUDGET_REPOSITORY_SHARE)", () => {
  const shared = (repository: string, store: ReturnType<typeof createMemoryBudgetStore>, share?: number) =>
    createReviewBudget({
      store,
      settings: settings(share === undefined ? {} : { repositoryShare: share }),
      owner: { account: "7", repository },
      maxTokens: 60_000,
      now: () => NOW,
    });

  it("stops one repository at its share, while another still gets the rest of the installation's cap", async () => {
    const store = createMemoryBudgetStore({ stateDir: null, now: () => NOW });
    const busy = shared("octo/busy", store, 0.5);
    const first = await busy.admit({ asked: false, config: defaultRepoConfig() });
    // Half of the installation's 100,000 tokens, less than the review's own 60,000.
    expect(first).toMatchObject({ kind: "admitted", maxTokens: 50_000 });
    if (first.kind !== "admitted") throw new Error("admitted");
    await first.settle(spent(45_000));
    const refused = await busy.admit({ asked: false, config: defaultRepoConfig() });
    expect(refused.kind === "refused" && refused.detail).toContain(
      "This repository has used 45,000 tokens today (UTC), counting what reviews still running may spend, against a cap of 50,000 tokens (this repository's share of the installation's cap, BUDGET_REPOSITORY_SHARE=0.5).",
    );
    expect(
      await shared("octo/quiet", store, 0.5).admit({ asked: false, config: defaultRepoConfig() }),
    ).toMatchObject({ kind: "admitted", maxTokens: 50_000 }); // its own share; 55,000 of the installation's left
  });

  it("keeps the lower of the share and the repository's own cap, in one counter", async () => {
    const store = createMemoryBudgetStore({ stateDir: null, now: () => NOW });
    const config = { ...defaultRepoConfig(), budget: { tokens_per_day: 30_000 } };
    const first = await shared("octo/own", store, 0.5).admit({ asked: false, config });
    expect(first).toMatchObject({ kind: "admitted", maxTokens: 30_000 });
    if (first.kind !== "admitted") throw new Error("admitted");
    await first.settle(spent(20_000));
    const refused = await shared("octo/own", store, 0.5).admit({ asked: false, config });
    // Counted once: 20,000 of the repository's own 30,000, not twice.
    expect(refused.kind === "refused" && refused.detail).toContain(
      "This repository has used 20,000 tokens today (UTC), counting what reviews still running may spend, against a cap of 30,000 tokens (`budget` in `.github/loupe.yml`).",
    );
  });

  it("lets any repository spend the whole installation cap when unset", async () => {
    const store = createMemoryBudgetStore({ stateDir: null, now: () => NOW });
    const first = await shared("octo/busy", store).admit({ asked: false, config: defaultRepoConfig() });
    expect(first).toMatchObject({ kind: "admitted", maxTokens: 60_000 });
  });
});
