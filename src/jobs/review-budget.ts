// The App's budget for one review: the operator's caps for the installation, the repository's own
// (tighter) caps from `.github/loupe.yml`, reserved in the budget store before the review starts
// and settled with its real spend when it ends. A review a person asked for (a writer's command,
// the re-run button) may go past the caps up to BUDGET_HARD_FACTOR times them; automatic ones stop
// at the caps. A refusal says what was spent, the cap, and when it resets.

import { DEFAULT_REPLY_LIMITS } from "../config/reply-limits.ts";
import type { SpendSettings } from "../config/spend-config.ts";
import {
  type BudgetCounter,
  type BudgetOwner,
  type BudgetStore,
  countersFor,
  repositoryCaps,
  tightestPerPullRequest,
  unitsOf,
} from "../domain/budget.ts";
import { costOf } from "../domain/spend.ts";
import type { Admission, ReviewBudget } from "../pipeline/budget-step.ts";
import { commandHandle, commandText } from "../pipeline/command-text.ts";
import type { BudgetAlerts } from "./budget-alerts.ts";

/** The operator's spend settings, the review's own token budget, and where spend is counted. */
export interface AppBudget {
  readonly settings: SpendSettings;
  readonly maxTokens: number;
  /** A reply's own token budget (REPLY_MAX_TOKENS): the most one reply reserves. */
  readonly replyMaxTokens?: number;
  readonly store?: BudgetStore;
  /** Told what each counter holds once a review settles (or is refused): the threshold alerts. */
  readonly alerts?: BudgetAlerts;
}

/** The review's budget under the App's, counted for `owner`: none when no store counts spend. */
export function reviewBudgetFor(
  app: AppBudget | undefined,
  owner: BudgetOwner,
  now: () => number,
): { readonly budget?: ReviewBudget } {
  if (app?.store === undefined) return {};
  const { store, settings, maxTokens, alerts } = app;
  return {
    budget: createReviewBudget({ store, settings, maxTokens, owner, now, ...(alerts ? { alerts } : {}) }),
  };
}

/**
 * A reply's budget under the App's, counted for `owner` in the same counters as reviews: a reply
 * reserves its own token budget before the model is asked and stops at the caps (it is never
 * "asked for" past them: anyone who may comment may reply).
 */
export function replyBudgetFor(
  app: AppBudget | undefined,
  owner: BudgetOwner,
  now: () => number,
): { readonly budget?: ReviewBudget } {
  if (app?.store === undefined) return {};
  const { store, settings, alerts } = app;
  const maxTokens = app.replyMaxTokens ?? DEFAULT_REPLY_LIMITS.maxTokens;
  return {
    budget: createReviewBudget({
      ...{ store, settings, maxTokens, owner, now, spender: "reply" as const },
      ...(alerts ? { alerts } : {}),
    }),
  };
}

export interface ReviewBudgetOptions {
  readonly store: BudgetStore;
  readonly settings: SpendSettings;
  readonly owner: BudgetOwner;
  /** The review's own token budget (REVIEW_MAX_TOKENS): the most it ever reserves. */
  readonly maxTokens: number;
  readonly now?: () => number;
  readonly alerts?: BudgetAlerts;
  /** What spends: its refusal says how it can go on (default: a review). */
  readonly spender?: "review" | "reply";
}

/** Below this, a review cannot do a round of useful work: it is refused instead of started. */
export const MIN_REVIEW_TOKENS = 20_000;

export function createReviewBudget(options: ReviewBudgetOptions): ReviewBudget {
  const { store, settings } = options;
  const now = options.now ?? Date.now;
  return {
    async admit({ asked, config, mention }): Promise<Admission> {
      // The repository's own caps (`budget` in loupe.yml) and its share of the installation's
      // (BUDGET_REPOSITORY_SHARE) count for it alone, on top of the installation's; a pull
      // request's cap is the lower of the operator's and the repository's.
      const caps = tightestPerPullRequest([
        ...settings.caps,
        ...repositoryCaps(config.budget, settings.caps, settings.repositoryShare),
      ]);
      if (caps.length === 0)
        return { kind: "admitted", maxTokens: options.maxTokens, settle: async () => {} };
      const counters = countersFor(caps, options.owner, now(), asked ? settings.hardFactor : 1);
      const rate = settings.prices === null ? 0 : dollarsPerTokenAtMost(settings.prices);
      const want = { min: Math.min(MIN_REVIEW_TOKENS, options.maxTokens), max: options.maxTokens };
      const grant = await store.reserve(counters, want, rate);
      if (grant.kind === "refused") {
        await options.alerts?.observe([grant.counter], [grant.spent]);
        const base = refusal(grant.counter, grant.spent);
        if (options.spender === "reply")
          return { kind: "refused", detail: `${base} ${replyOverride(grant.counter)}` };
        const command = asked ? "" : commandText(await commandHandle(mention), "review");
        return { kind: "refused", detail: `${base} ${reviewOverride(command, settings)}` };
      }
      return {
        kind: "admitted",
        maxTokens: grant.tokens,
        settle: async (spend) => {
          const cost = costOf(spend, settings.prices);
          const dollars = cost.kind === "unpriced" ? 0 : cost.dollars;
          const tokens = spend.input_tokens + spend.cached_input_tokens + spend.output_tokens;
          const spent = unitsOf(counters, tokens, dollars);
          const reserved = unitsOf(counters, grant.tokens, grant.tokens * rate);
          const held = await store.adjust(
            counters,
            spent.map((amount, i) => amount - reserved[i]!),
          );
          await options.alerts?.observe(counters, held);
        },
      };
    },
  };
}

const WHO = {
  installation: "This installation",
  repository: "This repository",
  pull_request: "This pull request",
} as const;
const WHEN = {
  day: "today (UTC)",
  month: "this month (UTC)",
  pull_request: "across all its pushes and re-runs",
} as const;

function dollarsPerTokenAtMost(prices: NonNullable<SpendSettings["prices"]>): number {
  return Math.max(prices.input, prices.cachedInput, prices.output) / 1_000_000;
}

/** What was spent against which cap, and when it starts again. */
function refusal(counter: BudgetCounter, spent: number): string {
  const { cap } = counter;
  const amount = (n: number) =>
    cap.unit === "tokens" ? `${Math.round(n).toLocaleString("en-US")} tokens` : `$${n.toFixed(2)}`;
  const who = WHO[cap.scope];
  const when = WHEN[cap.period];
  const resets = new Date(counter.resetsAt)
    .toISOString()
    .replace("T", " ")
    .replace(/:00\.000Z$/, " UTC");
  const source =
    (cap.setBy ?? cap.scope) === "installation"
      ? "the operator's"
      : cap.share !== undefined
        ? `this repository's share of the installation's cap, BUDGET_REPOSITORY_SHARE=${cap.share}`
        : "`budget` in `.github/loupe.yml`";
  const again =
    cap.period === "pull_request"
      ? "Its count is kept for 90 days after its last review."
      : `It starts again at ${resets}.`;
  // What is counted includes what reviews still running may spend: they give back the rest.
  return (
    `Budget reached: ${who} has used ${amount(spent)} ${when}, counting what reviews still running may spend, ` +
    `against a cap of ${amount(cap.limit)} (${source}). ${again}`
  );
}

/** command: what someone with write access types to go on; empty for a review already asked for. */
function reviewOverride(command: string, settings: SpendSettings): string {
  return command === ""
    ? `A review someone asks for may go up to ${settings.hardFactor}× the cap, and this one would go past that.`
    : `Someone with write access can still start this review with ${command} (up to ${settings.hardFactor}× the cap).`;
}

/** A reply has no command past the cap: who set the cap can raise it. */
function replyOverride(counter: BudgetCounter): string {
  const { cap } = counter;
  return (cap.setBy ?? cap.scope) === "installation" || cap.share !== undefined
    ? "Replies stop at the cap; the operator can raise it."
    : "Replies stop at the cap; someone with write access can raise `budget` in `.github/loupe.yml`.";
}
