// Spend caps over days and months (UTC), per installation and, tighter where a repository asks, per
// repository; and caps per pull request, over all its pushes and re-runs (the operator's, or the
// repository's where lower). A review reserves tokens before it starts — as many as its own token budget, or what
// is left under every cap if that is less — and gives back what it did not spend when it ends, so
// reviews running at once on any number of replicas cannot together go past a cap by more than
// their final-answer rounds. Dollar caps count tokens at the highest price per token while
// reserved, and the review's real cost once it is known.

import type { ForgeTag, PullRequestRef } from "./review-request.ts";

export type BudgetUnit = "tokens" | "dollars";
/** A pull request's caps have one period: the pull request's life, however many days it takes. */
export type BudgetPeriod = "day" | "month" | "pull_request";
export type BudgetScope = "installation" | "repository" | "pull_request";
/** Who set a cap: the operator's environment, or the repository's `.github/loupe.yml`. */
export type CapSource = "installation" | "repository";

export interface BudgetCap {
  readonly scope: BudgetScope;
  readonly unit: BudgetUnit;
  readonly period: BudgetPeriod;
  readonly limit: number;
  /** A pull request's cap only: whose it is (the tighter of the two wins). */
  readonly setBy?: CapSource;
  /** A repository's share of an installation cap (BUDGET_REPOSITORY_SHARE), when that set it. */
  readonly share?: number;
}

/** Caps by unit and period, as both the operator and `.github/loupe.yml` write them; unset: none. */
export interface CapLimits {
  readonly tokens_per_day?: number | undefined;
  readonly tokens_per_month?: number | undefined;
  readonly dollars_per_day?: number | undefined;
  readonly dollars_per_month?: number | undefined;
  readonly tokens_per_pull_request?: number | undefined;
  readonly dollars_per_pull_request?: number | undefined;
}

/**
 * A repository's caps: its own (`budget` in its settings), and, with a share (the operator's
 * BUDGET_REPOSITORY_SHARE), that fraction of each installation day or month cap, counted for the
 * repository alone. Where both bound the same unit and period the lower holds: one counter each,
 * so a reservation is never counted twice.
 */
export function repositoryCaps(
  own: CapLimits,
  installation: readonly BudgetCap[],
  share: number | undefined,
): BudgetCap[] {
  const caps = capsOf("repository", own);
  if (share === undefined) return caps;
  for (const cap of installation) {
    if (cap.scope !== "installation") continue;
    const limit = cap.unit === "tokens" ? Math.floor(cap.limit * share) : cap.limit * share;
    const same = caps.findIndex(
      (c) => c.scope === "repository" && c.unit === cap.unit && c.period === cap.period,
    );
    const shared: BudgetCap = { scope: "repository", unit: cap.unit, period: cap.period, limit, share };
    if (same === -1) caps.push(shared);
    else if (limit < caps[same]!.limit) caps[same] = shared;
  }
  return caps;
}

export function capsOf(scope: CapSource, limits: CapLimits): BudgetCap[] {
  const listed: [BudgetUnit, "day" | "month", number | undefined][] = [
    ["tokens", "day", limits.tokens_per_day],
    ["tokens", "month", limits.tokens_per_month],
    ["dollars", "day", limits.dollars_per_day],
    ["dollars", "month", limits.dollars_per_month],
  ];
  const perPullRequest: [BudgetUnit, number | undefined][] = [
    ["tokens", limits.tokens_per_pull_request],
    ["dollars", limits.dollars_per_pull_request],
  ];
  return [
    ...listed.flatMap(([unit, period, limit]) =>
      limit === undefined ? [] : [{ scope, unit, period, limit }],
    ),
    ...perPullRequest.flatMap(([unit, limit]) =>
      limit === undefined
        ? []
        : [{ scope: "pull_request" as const, unit, period: "pull_request" as const, limit, setBy: scope }],
    ),
  ];
}

/**
 * One pull-request cap per unit, the lowest: the operator's and the repository's count the same
 * spend (one counter), so the repository can tighten the operator's cap, never loosen it.
 */
export function tightestPerPullRequest(caps: readonly BudgetCap[]): BudgetCap[] {
  const lowest = new Map<BudgetUnit, BudgetCap>();
  for (const cap of caps) {
    if (cap.scope !== "pull_request") continue;
    const held = lowest.get(cap.unit);
    if (held === undefined || cap.limit < held.limit) lowest.set(cap.unit, cap);
  }
  return [...caps.filter((cap) => cap.scope !== "pull_request"), ...lowest.values()];
}

/**
 * How long a pull request's counter is kept after its last review: 90 days. Most pull requests
 * close within days and a few stay open for weeks; each review starts the 90 days again, so a
 * pull request still being pushed to never loses its count, and one left alone for a whole season
 * starts from nothing when it wakes — by then it is as good as a new one. Redis holds nothing for
 * a pull request that never asked for a review.
 */
export const PULL_REQUEST_COUNTER_MS = 90 * 24 * 60 * 60 * 1000;

/** One cap in one period: the store's counter for it, and when that counter starts again at 0. */
export interface BudgetCounter {
  readonly key: string;
  readonly cap: BudgetCap;
  /** The limit this reservation may use: the cap, or more for a review a writer asked for. */
  readonly limit: number;
  /** Epoch milliseconds of the next period's start. */
  readonly resetsAt: number;
}

export interface BudgetWant {
  /** Tokens a review needs at the least to be worth starting. */
  readonly min: number;
  /** Tokens it may use at the most (its own token budget). */
  readonly max: number;
}

export type Grant =
  | { readonly kind: "granted"; readonly tokens: number }
  | { readonly kind: "refused"; readonly counter: BudgetCounter; readonly spent: number };

/** Where spend is counted: in this process (and its state directory), or in Redis for a fleet. */
export interface BudgetStore {
  /**
   * Atomically, over every counter: grants up to `want.max` tokens and at least `want.min`,
   * adding the grant to each counter in its unit (`dollarsPerToken` for dollar counters); or
   * refuses without adding anything, naming the first counter without room.
   */
  reserve(counters: readonly BudgetCounter[], want: BudgetWant, dollarsPerToken: number): Promise<Grant>;
  /** Adds each amount (negative: gives back) to its counter, without any cap; what each then holds. */
  adjust(counters: readonly BudgetCounter[], amounts: readonly number[]): Promise<number[]>;
  /**
   * True for the first caller only, across the fleet, until `resetsAt`: a budget alert is said
   * once per threshold and period however many replicas see it passed.
   */
  claim(key: string, resetsAt: number): Promise<boolean>;
}

/** The period's name in counter keys: 2026-12-05 or 2026-12. */
export function periodKey(period: "day" | "month", now: number): string {
  const iso = new Date(now).toISOString();
  return period === "day" ? iso.slice(0, 10) : iso.slice(0, 7);
}

/** When a counter of this period starts again at 0 (a pull request's: 90 days after now). */
export function periodResetsAt(period: BudgetPeriod, now: number): number {
  const d = new Date(now);
  if (period === "pull_request") return now + PULL_REQUEST_COUNTER_MS;
  return period === "day"
    ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)
    : Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

export interface BudgetOwner {
  /** Whose installation-wide caps count the spend: an App installation's id, or GitLab's instance. */
  readonly account: string;
  /** owner/repo, lower case (GitHub's names are case-insensitive); GitLab's prefixed `gitlab:`. */
  readonly repository: string;
  /** The pull request's number (a merge request's iid); without one, its caps do not apply. */
  readonly pullRequest?: number;
}

/**
 * Where a review's or a reply's spend is counted. A GitLab instance is one account, each project
 * apart from GitHub's; its counters keep the name they had before requests carried their forge
 * (`installation:0`), so an upgrade keeps the spend of the running day and month.
 */
export function budgetOwnerOf(request: PullRequestRef & ForgeTag): BudgetOwner {
  const path = `${request.owner}/${request.repo}`.toLowerCase();
  return request.forge === "github"
    ? { account: String(request.installationId), repository: path, pullRequest: request.pullNumber }
    : { account: "0", repository: `gitlab:${path}`, pullRequest: request.pullNumber };
}

/** The counters of these caps now, with each limit multiplied by `factor` (1, or a writer's). */
export function countersFor(
  caps: readonly BudgetCap[],
  owner: BudgetOwner,
  now: number,
  factor = 1,
): BudgetCounter[] {
  return caps.flatMap((cap) => {
    const resetsAt = periodResetsAt(cap.period, now);
    if (cap.period === "pull_request") {
      if (owner.pullRequest === undefined) return [];
      const key = `pull_request:${owner.repository}#${owner.pullRequest}:${cap.unit}`;
      return [{ key, cap, limit: cap.limit * factor, resetsAt }];
    }
    const who =
      cap.scope === "installation" ? `installation:${owner.account}` : `repository:${owner.repository}`;
    const key = `${who}:${cap.unit}:${cap.period}:${periodKey(cap.period, now)}`;
    return [{ key, cap, limit: cap.limit * factor, resetsAt }];
  });
}

/** The grant `reserve` makes given what each counter holds now (the rule both stores apply). */
export function grantFrom(
  spent: readonly number[],
  counters: readonly BudgetCounter[],
  want: BudgetWant,
  dollarsPerToken: number,
): Grant {
  let tokens = want.max;
  for (const [i, counter] of counters.entries()) {
    const used = spent[i] ?? 0;
    const room = counter.limit - used;
    const rate = counter.cap.unit === "tokens" ? 1 : dollarsPerToken;
    // The epsilon keeps a float quotient such as 99999.99999 from costing a whole token.
    const fits = rate === 0 ? Number.POSITIVE_INFINITY : Math.floor(room / rate + 1e-9);
    if (fits < want.min) return { kind: "refused", counter, spent: used };
    tokens = Math.min(tokens, fits);
  }
  return { kind: "granted", tokens };
}

/** What a grant adds to each counter, in its unit. */
export function unitsOf(counters: readonly BudgetCounter[], tokens: number, dollars: number): number[] {
  return counters.map((c) => (c.cap.unit === "tokens" ? tokens : dollars));
}
