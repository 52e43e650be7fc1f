// One review job of the App: the review pipeline on the GitHub host, wrapped in its check run.
// Every exit completes the check run (or hands it back with the job), the workspace is disposed
// by the pipeline, and the installation token is forgotten only after the last text that could
// quote it was published.

import type { ConfigFile } from "../config/config-file-read.ts";
import { slugOf } from "../conversation/command.ts";
import { budgetOwnerOf } from "../domain/budget.ts";
import { isCancelReason } from "../domain/cancel-reason.ts";
import { queueKey } from "../domain/review-request.ts";
import type { CheckRuns, KnownRun, OpenCheckRun } from "../forges/github/check-runs/check-runs.ts";
import type { OrganisationConfigCache } from "../forges/github/organisation-config-cache.ts";
import { retryWithin } from "../forges/github/retry-deadline.ts";
import type { SecondaryRetryOptions } from "../forges/github/retry-secondary.ts";
import { reviewOnGitHub } from "../forges/github/review-on-github.ts";
import { GitHubUnavailableError, isGitHubUnavailable } from "../forges/github/unavailable.ts";
import { GITHUB_WORDS } from "../forges/github/words.ts";
import type { RoundProgress } from "../llm/types.ts";
import type { ReviewEnded } from "../metrics/review-ended.ts";
import { cancellation, type ReviewOutcome } from "../pipeline/review-outcome.ts";
import type { Workspace, WorkspaceHandle } from "../workspace/types.ts";
import { type Ending, endingFor } from "./ending.ts";
import type { JobEnvironment } from "./job-environment.ts";
import { type AppBudget, reviewBudgetFor } from "./review-budget.ts";
import type { ReviewJob } from "./review-job.ts";
import type { JobSettlement } from "./review-queue.ts";

export interface RunReviewOptions<W extends WorkspaceHandle = Workspace> extends JobEnvironment<W> {
  readonly job: ReviewJob;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly now?: () => number;
  readonly checkRuns: CheckRuns;
  /** Told the check run as soon as it is open, so a later attempt of this job reuses it. */
  readonly onCheckRun?: (run: KnownRun) => Promise<void>;
  /** Told once, after the check run is completed: the metrics and the review's log line. */
  readonly onEnded?: (ending: ReviewEnded) => void;
  readonly budget?: AppBudget;
  /** The organisation files the App keeps for a short time (absent: read for every review). */
  readonly organisationConfigs?: OrganisationConfigCache;
}

export type { AppBudget } from "./review-budget.ts";

export async function runReview<W extends WorkspaceHandle>(
  options: RunReviewOptions<W>,
): Promise<JobSettlement> {
  const { job, signal, octokit, ports, config } = options;
  const { request } = job;
  if (request.forge !== "github") throw new Error("a merge request's job given to GitHub's runner");
  const now = options.now ?? Date.now;
  const startedAt = now();
  const key = queueKey(request);
  const log = {
    info: (obj: object, msg: string) => options.log.info({ key, ...obj }, msg),
    warn: (obj: object, msg: string) => options.log.warn({ key, ...obj }, msg),
  };
  const retry: SecondaryRetryOptions = {
    sleep: options.sleep,
    now,
    deadline: now() + ports.reviewTimeoutMs + 60_000,
  };
  // Octokit's own retries (and their waits) end with the review's time; completing the check run
  // after it still gets one attempt per request, and secondary rate limits the margin above.
  retryWithin(octokit, startedAt + ports.reviewTimeoutMs, now);
  const runs = reviewCheckRun(options, retry.deadline);
  const review = {
    host: {
      octokit,
      gitBaseUrl: config.gitBaseUrl,
      gitHost: config.gitHost,
      botLogin: options.botLogin,
      retry,
      ...(options.organisationConfigs === undefined
        ? {}
        : {
            organisationConfig: (read: () => Promise<ConfigFile | null>) =>
              options.organisationConfigs!.read(
                { installationId: request.installationId, owner: request.owner },
                read,
              ),
          }),
    },
    request,
    ports,
    run: {
      signal,
      authorPolicy: config.autoReviewAuthors,
      mention: async () => slugOf(await options.botLogin()),
      prices: options.budget?.settings.prices ?? null,
      now,
      started: async (pr: { readonly headSha: string }) => (await runs.open(pr.headSha)).id,
      onRound: (progress: RoundProgress) => runs.current()?.progress(progress),
      log,
      ...reviewBudgetFor(options.budget, budgetOwnerOf(request), now),
    },
    failed: async (error: unknown): Promise<ReviewOutcome> => {
      // A review that failed before its check run was asked for still reports somewhere — but not
      // on a GitHub that is away: that would be minutes more of retries to the same end.
      if (!runs.asked() && !isGitHubUnavailable(error))
        await runs.open(request.headSha).catch(() => undefined);
      return cancellation(signal) ?? { kind: "failed", error };
    },
  };
  return await reviewOnGitHub(review, async (outcome) => {
    const ending = endingFor(outcome, GITHUB_WORDS);
    // Handed back to the shared queue: the run stays open for the replica that takes the job over
    // (the settlement is then `remember: false`, as for every aborted job).
    if (signal.aborted && isCancelReason(signal.reason) && signal.reason.kind === "handback") {
      log.info({}, "review handed back to the queue");
      return { remember: false };
    }
    const unavailable = outcome.kind === "failed" && isGitHubUnavailable(outcome.error);
    const completed = await completeRun(runs.current(), ending, unavailable);
    options.onEnded?.({
      repository: `${request.owner}/${request.repo}`,
      pullNumber: request.pullNumber,
      headSha: runs.current()?.headSha ?? request.headSha,
      // No check run was completed: none was ever open, or GitHub refused its completion.
      conclusion: completed ? ending.conclusion : "none",
      result: outcome.kind === "reviewed" ? outcome.result : null,
      cost: outcome.kind === "reviewed" ? outcome.cost : null,
      ...(outcome.kind === "reviewed" && outcome.findingEvents
        ? { findingEvents: outcome.findingEvents }
        : {}),
      ...(unavailable ? { terminationReason: "github_unavailable" as const } : {}),
      ...(outcome.kind === "skipped" ? { skipReason: outcome.code } : {}),
      durationMs: now() - startedAt,
    });
    // The queue fails the job (the fleet's dashboard shows it failed; one process logs it).
    if (unavailable) throw new GitHubUnavailableError(outcome.error);
    return { remember: ending.remember };
  });
}

/** Completes the run if there is one; false if there is none, or GitHub is away and it stays open. */
async function completeRun(run: OpenCheckRun | null, ending: Ending, unavailable: boolean): Promise<boolean> {
  if (run === null) return false;
  if (!unavailable) {
    await run.complete(ending);
    return true;
  }
  return run.complete(ending).then(
    () => true,
    () => false,
  );
}

/** The job's check run: the queued one when it waits on the same commit, else a new one. */
function reviewCheckRun<W extends WorkspaceHandle>(options: RunReviewOptions<W>, deadline: number) {
  const { request } = options.job;
  let earlier = options.job.checkRun;
  let open: OpenCheckRun | null = null;
  let asked = false;
  let looked = false;
  return {
    current: () => open,
    asked: () => asked,
    open: async (headSha: string): Promise<OpenCheckRun> => {
      asked = true;
      open = await options.checkRuns.open({
        octokit: options.octokit,
        target: { owner: request.owner, repo: request.repo, pullNumber: request.pullNumber },
        headSha,
        earlier,
        deadline,
        findOpen: options.job.findOpenRun === true && !looked,
      });
      looked = true;
      earlier = null; // the earlier run is used once
      await options.onCheckRun?.({ id: open.id, headSha: open.headSha });
      return open;
    },
  };
}
