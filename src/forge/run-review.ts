// The one review job, for every forge: the App's (GitHub and GitLab, in the same queues), the
// Action's, GitLab's CI job and `loupe review`'s on a local repository. It runs the pipeline on the host the forge built for the job,
// asks the forge's reporter to open its report once the change is read (a check run, a pending
// commit status) and to complete it with the ending, tells the metrics once, and settles the job.
// The forge supplies only what differs: its host, its words, whom the spend is counted for, and
// its reporter (which also names the failures it knows). The host is disposed after the reporter
// completed: a token is forgotten only after the last text that could quote it was published.

import { loupeTool } from "../config/loupe-version.ts";
import type { AuthorPolicy } from "../domain/author-policy.ts";
import type { BudgetOwner } from "../domain/budget.ts";
import { isCancelReason } from "../domain/cancel-reason.ts";
import type { Severity } from "../domain/finding.ts";
import type { ForgeWords } from "../domain/forge-words.ts";
import { type AskedReview, queueKey } from "../domain/review-request.ts";
import type { SettingNames } from "../domain/setting-names.ts";
import type { Prices } from "../domain/spend.ts";
import type { PullRequestHost } from "../host/pull-request-host.ts";
import { withFailOn } from "../jobs/conclusion.ts";
import { type Ending, endingFor } from "../jobs/ending.ts";
import type { ForgeUnavailableError } from "../jobs/forge-unavailable.ts";
import { type AppBudget, reviewBudgetFor } from "../jobs/review-budget.ts";
import type { JobSettlement } from "../jobs/review-queue.ts";
import type { RoundProgress } from "../llm/types.ts";
import { errorDetail } from "../log/error-detail.ts";
import type { JobLogger } from "../log/job-logger.ts";
import type { ReviewEnded } from "../metrics/review-ended.ts";
import type { ReviewDeadline } from "../pipeline/review-deadline.ts";
import { cancellation, type ReviewOutcome } from "../pipeline/review-outcome.ts";
import type { ReviewPorts } from "../pipeline/review-ports.ts";
import { reviewPullRequest } from "../pipeline/review-pull-request.ts";
import type { WorkspaceHandle } from "../workspace/types.ts";

/** How a forge shows one review: opened once the change is read, completed with its ending. */
export interface ReviewReporter {
  /** The change was read at `headSha`: the report opens; its id marks the review's comments. */
  open(headSha: string): Promise<number>;
  progress?(progress: RoundProgress): void;
  /**
   * A review that threw, as the forge names it: null for the default (cancelled or failed);
   * `report: false` when there is nothing to report on, nor anywhere to (the job settles unseen).
   */
  failed?(error: unknown): Promise<{ readonly outcome: ReviewOutcome; readonly report: boolean } | null>;
  /**
   * Shows the ending. `reported`: whether it was shown (false: no report was ever open, or the
   * forge refused it); `headSha`: the commit it was shown on; `unavailable`: the forge was away,
   * thrown once the metrics have been told (the queue fails the job visibly).
   */
  complete(
    ending: Ending,
    outcome: ReviewOutcome,
  ): Promise<{
    readonly reported: boolean;
    readonly headSha: string;
    readonly unavailable?: ForgeUnavailableError;
  }>;
}

/** What one forge supplies to a review job. */
export interface ForgeReview<W extends WorkspaceHandle> {
  readonly host: PullRequestHost<W> & AsyncDisposable;
  readonly words: ForgeWords;
  readonly reporter: ReviewReporter;
  /** The handle a command mentions; absent: "mentioning Loupe". */
  readonly mention?: () => Promise<string>;
  /** The review's deadline, started by a host that reads the repository before the pipeline asks (the local one). */
  readonly deadline?: ReviewDeadline;
}

export interface RunReviewOptions<W extends WorkspaceHandle> {
  /** How the review was asked: by a person (`rerun`), in full (`command.full_review`). */
  readonly request: Pick<AskedReview, "rerun" | "trigger">;
  readonly signal: AbortSignal;
  readonly ports: ReviewPorts<W>;
  readonly authorPolicy: AuthorPolicy;
  /** The job's log (the App's names the queue key on every line: jobLog). */
  readonly log: JobLogger;
  readonly now?: () => number;
  /** The App's spend budget, and whom this review's spend is counted for (domain/budget's budgetOwnerOf). */
  readonly budget?: { readonly app: AppBudget; readonly owner: BudgetOwner };
  /** The operator's prices; absent: the budget's. */
  readonly prices?: Prices | null;
  /** Told once, after the report is completed: the metrics and the review's log line (the caller names the change). */
  readonly onEnded?: (ending: Omit<ReviewEnded, "repository" | "pullNumber">) => void;
  /** The caller's `fail-on` (the Action's input, the CI job's option); absent: the repository's `fail_on`. */
  readonly failOn?: Severity | null;
  /** How texts name settings where they are read (the Action: its inputs). */
  readonly names?: SettingNames;
  /** The host as the pipeline sees it (the Action watches its publisher for a refusal). */
  readonly watch?: (host: PullRequestHost<W>) => PullRequestHost<W>;
}

/** The queue's settlement, and the review's outcome and ending for a caller that reports them. */
export interface ReviewSettlement extends JobSettlement {
  readonly outcome: ReviewOutcome;
  readonly ending: Ending;
}

export type { AppBudget } from "../jobs/review-budget.ts";

export async function runReview<W extends WorkspaceHandle>(
  options: RunReviewOptions<W>,
  forge: ForgeReview<W>,
): Promise<ReviewSettlement> {
  const { request, signal, ports, reporter } = { ...options, ...forge };
  const now = options.now ?? Date.now;
  const startedAt = now();
  const { log } = options;
  await using host = forge.host;
  let report = true;
  const reviewed = await reviewPullRequest(options.watch?.(host) ?? host, ports, {
    signal,
    now,
    asked: request.rerun,
    askedFull: request.trigger === "command.full_review",
    authorPolicy: options.authorPolicy,
    prices: options.prices ?? options.budget?.app.settings.prices ?? null,
    log,
    ...(forge.mention === undefined ? {} : { mention: forge.mention }),
    ...(options.names === undefined ? {} : { names: options.names }),
    ...(forge.deadline === undefined ? {} : { deadline: forge.deadline }),
    started: (pullRequest) => reporter.open(pullRequest.headSha),
    onRound: (progress) => reporter.progress?.(progress),
    ...(options.budget === undefined ? {} : reviewBudgetFor(options.budget.app, options.budget.owner, now)),
  }).catch(async (error: unknown): Promise<ReviewOutcome> => {
    const named = await reporter.failed?.(error);
    if (named?.report === false) {
      report = false;
      return named.outcome;
    }
    log.warn({ error: errorDetail(error) }, "review ended early");
    return named?.outcome ?? cancellation(signal) ?? { kind: "failed", error };
  });
  const outcome = report ? withFailOn(reviewed, options.failOn ?? null) : reviewed;
  // Where the report is also a comment (GitLab's summary note), its model text links as the host's.
  const ending = endingFor(outcome, forge.words, loupeTool(), options.names, host.repository.references);
  // Handed back to the shared queue: the report stays open for the replica that takes the job over
  // (the settlement is then `remember: false`, as for every aborted job).
  if (signal.aborted && isCancelReason(signal.reason) && signal.reason.kind === "handback") {
    log.info({}, "review handed back to the queue");
    return { remember: false, outcome, ending };
  }
  if (!report) return { remember: false, outcome, ending };
  const shown = await reporter.complete(ending, outcome);
  options.onEnded?.({
    headSha: shown.headSha,
    conclusion: shown.reported ? ending.conclusion : "none",
    result: outcome.kind === "reviewed" ? outcome.result : null,
    cost: outcome.kind === "reviewed" ? outcome.cost : null,
    ...(outcome.kind === "reviewed" && outcome.findingEvents ? { findingEvents: outcome.findingEvents } : {}),
    ...(shown.unavailable === undefined ? {} : { terminationReason: shown.unavailable.terminationReason }),
    ...(outcome.kind === "skipped" ? { skipReason: outcome.code } : {}),
    durationMs: now() - startedAt,
  });
  if (shown.unavailable !== undefined) throw shown.unavailable;
  return { remember: ending.remember, outcome, ending };
}

/** The job's log: every line names the job's queue key. */
export function jobLog(log: JobLogger, request: Parameters<typeof queueKey>[0]): JobLogger {
  const key = queueKey(request);
  return {
    info: (obj, msg) => log.info({ key, ...obj }, msg),
    warn: (obj, msg) => log.warn({ key, ...obj }, msg),
  };
}
