// The metrics port: what the queue, the review job and the webhook handler report, as plain
// method calls, so none of them knows about Prometheus. One instance per process
// (prometheus-metrics.ts); NO_METRICS where nothing is measured (the CLI, tests of other parts).
// Labels are small closed sets only: never a repository, pull request or SHA (unbounded series).

import type { BudgetPeriod, BudgetScope, BudgetUnit } from "../domain/budget.ts";
import type { TerminationReason } from "../domain/outcome.ts";
import type { Spend } from "../domain/spend.ts";

/** What a finished review reports (the JSON log line carries the same facts plus its identity). */
export interface ReviewEndedReport {
  /** The loop's reason, or "none" when the loop did not run (a skip, a config error, a failure). */
  readonly terminationReason: TerminationReason | "none";
  /** The check run's conclusion (success, neutral, cancelled, skipped...). */
  readonly conclusion: string;
  readonly durationSeconds: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** The same tokens as billed: fresh input, cached input and output. */
  readonly spend: Spend;
  /** The review's cost in dollars, or null when nothing prices it. */
  readonly dollars: number | null;
  /** New findings it posted, and Loupe's threads it resolved as fixed. */
  readonly findingsPosted: number;
  readonly findingsFixed: number;
}

/** What a finished reply in a review thread reports. */
export interface ReplyEndedReport {
  /** answered, failed, skipped or cancelled. */
  readonly outcome: string;
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** The same tokens as billed (nothing when the loop never ran: a skip, a refusal). */
  readonly spend: Spend;
  /** The reply's cost in dollars, or null when nothing prices it. */
  readonly dollars: number | null;
  /** An answered reply's verdict on the finding (still_valid, fixed, withdrawn, dismissed). */
  readonly findingStatus: string | null;
}

export interface QueueStats {
  readonly running: number;
  readonly pending: number;
  /** Jobs held back until a time (a shared queue's retries, a busy pull request's jobs). */
  readonly delayed?: number;
}

/** One budget counter's share of its cap used (its labels a closed set; the key never a label). */
export interface BudgetUse {
  readonly scope: BudgetScope;
  readonly unit: BudgetUnit;
  readonly period: BudgetPeriod;
  /** The counter (who and which period): the gauge keeps the highest share per label set. */
  readonly key: string;
  readonly ratio: number;
  readonly resetsAt: number;
}

/** The dependencies whose errors are counted (loupe_dependency_errors_total). */
export type DependencyName = "github" | "gitlab" | "provider" | "redis";

export interface Metrics {
  reviewEnded(report: ReviewEndedReport): void;
  replyEnded(report: ReplyEndedReport): void;
  toolCall(tool: string, ok: boolean): void;
  /** One per webhook delivery Loupe handles; `outcome` is "queued", "skipped" or the queue's answer. */
  webhookDelivery(event: string, outcome: string): void;
  /** Where the queue gauge reads its numbers when scraped (the last queue given wins). */
  watchQueue(stats: () => QueueStats | Promise<QueueStats>): void;
  /** One error talking to a dependency; `kind` is one of domain/error-kind.ts's closed set. */
  dependencyError(dependency: DependencyName, kind: string): void;
  /** The provider gate: a model request began (1) or ended (-1) waiting for its share. */
  providerWaiting(delta: 1 | -1): void;
  /** The tokens the fleet's model requests used in the last minute, as last seen at a grant. */
  providerTokensInMinute(tokens: number): void;
  /** The provider answered 429 with Retry-After: the fleet waits this many seconds. */
  providerBackOff(seconds: number): void;
  /** A budget counter's share used, as last settled (loupe_budget_used_ratio). */
  budgetUsed(use: BudgetUse): void;
}

export const NO_METRICS: Metrics = {
  reviewEnded: () => {},
  replyEnded: () => {},
  toolCall: () => {},
  webhookDelivery: () => {},
  watchQueue: () => {},
  dependencyError: () => {},
  providerWaiting: () => {},
  providerTokensInMinute: () => {},
  providerBackOff: () => {},
  budgetUsed: () => {},
};
