// Spend caps over days and months (UTC), per installation and, tighter where a repository asks, per
// repository. A review reserves tokens before it starts — as many as its own token budget, or what
// is left under every cap if that is less — and gives back what it did not spend when it ends, so
// reviews running at once on any number of replicas cannot together go past a cap by more than
// their final-answer rounds. Dollar caps count tokens at the highest price per token while
// reserved, and the review's real cost once it is known.

export type BudgetUnit = "tokens" | "dollars";
export type BudgetPeriod = "day" | "month";
export type BudgetScope = "installation" | "repository";

export interface BudgetCap {
  readonly scope: BudgetScope;
  readonly unit: BudgetUnit;
  readonly period: BudgetPeriod;
  readonly limit: number;
  /** A repository's share of an installation cap (BUDGET_REPOSITORY_SHARE), when that set it. */
  readonly share?: number;
}

/** Caps by unit and period, as both the operator and `.github/loupe.yml` write them; unset: none. */
export interface CapLimits {
  readonly tokens_per_day?: number | undefined;
  readonly tokens_per_month?: number | undefined;
  readonly dollars_per_day?: number | undefined;
  readonly dollars_per_month?: number | undefined;
}

/**
 * A repository's caps: its own (`budget` in its settings), and, with a share (the operator's
 * BUDGET_REPOSITORY_SHARE), that fraction of each installation cap, counted for the repository
 * alone. Where both bound the same unit and period the lower holds: one counter each, so a
 * reservation is never counted twice.
 */
export function repositoryCaps(
  own: CapLimits,
  installation: readonly BudgetCap[],
  share: number | undefined,
): BudgetCap[] {
  const caps = capsOf("repository", own);
  if (share === undefined) return caps;
  for (const cap of installation) {
    const limit = cap.unit === "tokens" ? Math.floor(cap.limit * share) : cap.limit * share;
    const same = caps.findIndex((c) => c.unit === cap.unit && c.period === cap.period);
    const shared: BudgetCap = { scope: "repository", unit: cap.unit, period: cap.period, limit, share };
    if (same === -1) caps.push(shared);
    else if (limit < caps[same]!.limit) caps[same] = shared;
  }
  return caps;
}

export function capsOf(scope: BudgetScope, limits: CapLimits): BudgetCap[] {
  const listed: [BudgetUnit, BudgetPeriod, number | undefined][] = [
    ["tokens", "day", limits.tokens_per_day],
    ["tokens", "month", limits.tokens_per_month],
    ["dollars", "day", limits.dollars_per_day],
    ["dollars", "month", limits.dollars_per_month],
  ];
  return listed.flatMap(([unit, period, limit]) =>
    limit === undefined ? [] : [{ scope, unit, period, limit }],
  );
}

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
  /** Adds each amount (negative: gives back) to its counter, without any cap. */
  adjust(counters: readonly BudgetCounter[], amounts: readonly number[]): Promise<void>;
}

/** The period's name in counter keys: 2026-12-05 or 2026-12. */
export function periodKey(period: BudgetPeriod, now: number): string {
  const iso = new Date(now).toISOString();
  return period === "day" ? iso.slice(0, 10) : iso.slice(0, 7);
}

export function periodResetsAt(period: BudgetPeriod, now: number): number {
  const d = new Date(now);
  return period === "day"
    ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)
    : Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

export interface BudgetOwner {
  readonly installationId: number;
  /** owner/repo, lower case: GitHub's names are case-insensitive. */
  readonly repository: string;
}

/** The counters of these caps now, with each limit multiplied by `factor` (1, or a writer's). */
export function countersFor(
  caps: readonly BudgetCap[],
  owner: BudgetOwner,
  now: number,
  factor = 1,
): BudgetCounter[] {
  return caps.map((cap) => {
    const who =
      cap.scope === "installation"
        ? `installation:${owner.installationId}`
        : `repository:${owner.repository}`;
    return {
      key: `${who}:${cap.unit}:${cap.period}:${periodKey(cap.period, now)}`,
      cap,
      limit: cap.limit * factor,
      resetsAt: periodResetsAt(cap.period, now),
    };
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
