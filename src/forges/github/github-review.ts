// What GitHub gives the one review job (forge/run-review.ts) for an App's job: the GitHub host on
// the installation's client, its check run as the reporter (the queued one when it waits on the
// same commit, else a new one), the installation as the budget's owner, and GitHub's failures:
// a review that failed before its check run was asked for still reports somewhere — but not on a
// GitHub that is away, which ends the job `github_unavailable` and fails it visibly.

import { slugOf } from "../../conversation/command.ts";
import type { GitHubAppReview, GitHubReview } from "../../domain/review-request.ts";
import type { ForgeReview, ReviewReporter } from "../../forge/run-review.ts";
import type { KnownRun, ReviewJob } from "../../jobs/review-job.ts";
import type { WorkspaceHandle } from "../../workspace/types.ts";
import type { CheckRuns, OpenCheckRun } from "./check-runs/check-runs.ts";
import { type GitHubHostOptions, gitHubHost } from "./github-host.ts";
import type { GitHubClient } from "./octokit.ts";
import { retryWithin } from "./retry-deadline.ts";
import { GitHubUnavailableError, isGitHubUnavailable } from "./unavailable.ts";
import { GITHUB_WORDS } from "./words.ts";

export interface GitHubReviewOptions<W extends WorkspaceHandle> {
  readonly request: GitHubReview;
  readonly octokit: GitHubClient;
  readonly host: Omit<GitHubHostOptions<W>, "request" | "octokit" | "retry">;
  /** The review's time: Octokit's retries end with it; the check run's completion gets a minute more. */
  readonly reviewTimeoutMs: number;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly now: () => number;
  /** The review's report, whose writes retry until `deadline`: the App's check run, the Action's. */
  readonly reporter: (deadline: number) => ReviewReporter;
  /** The handle a command mentions; absent: the App's slug. */
  readonly mention?: () => Promise<string>;
}

export function gitHubReview<W extends WorkspaceHandle>(options: GitHubReviewOptions<W>): ForgeReview<W> {
  const { octokit, now, request } = options;
  const startedAt = now();
  const deadline = startedAt + options.reviewTimeoutMs + 60_000;
  // Octokit's own retries (and their waits) end with the review's time; completing the check run
  // after it still gets one attempt per request, and secondary rate limits the margin above.
  retryWithin(octokit, startedAt + options.reviewTimeoutMs, now);
  return {
    host: gitHubHost({ ...options.host, octokit, request, retry: { sleep: options.sleep, now, deadline } }),
    words: GITHUB_WORDS,
    mention: options.mention ?? (async () => slugOf(await options.host.botLogin())),
    reporter: options.reporter(deadline),
  };
}

export interface AppCheckRunOptions {
  readonly job: ReviewJob;
  /** The job's request, delivered to one installation of the App. */
  readonly request: GitHubAppReview;
  readonly octokit: GitHubClient;
  readonly checkRuns: CheckRuns;
  /** Told the check run as soon as it is open, so a later attempt of this job reuses it. */
  readonly onCheckRun?: (run: KnownRun) => Promise<void>;
}

/** The App job's check run: the queued one when it waits on the same commit, else a new one. */
export function appCheckRun(options: AppCheckRunOptions, deadline: number): ReviewReporter {
  const { request } = options;
  let earlier = options.job.checkRun;
  let open: OpenCheckRun | null = null;
  let asked = false;
  let looked = false;
  const openRun = async (headSha: string): Promise<OpenCheckRun> => {
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
  };
  return {
    open: async (headSha) => (await openRun(headSha)).id,
    progress: (progress) => open?.progress(progress),
    failed: async (error) => {
      if (!asked && !isGitHubUnavailable(error)) await openRun(request.headSha).catch(() => undefined);
      return null;
    },
    complete: async (ending, outcome) => {
      const unavailable = outcome.kind === "failed" && isGitHubUnavailable(outcome.error);
      const run: OpenCheckRun | null = open;
      const headSha = run?.headSha ?? request.headSha;
      // Completed unless there is none, or GitHub is away and it stays open.
      const reported =
        run === null
          ? false
          : unavailable
            ? await run.complete(ending).then(
                () => true,
                () => false,
              )
            : await run.complete(ending).then(() => true);
      if (!unavailable || outcome.kind !== "failed") return { reported, headSha };
      return { reported, headSha, unavailable: new GitHubUnavailableError(outcome.error) };
    },
  };
}
