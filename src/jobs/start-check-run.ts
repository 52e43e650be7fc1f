// Step 1 of a review: the check run it reports on. A review that waited its turn takes over the
// queued run made for it (queued-check-runs.ts) when it reviews that same commit; a re-run that
// finds the pull request moved on while it waited closes that run as superseded, then starts a new
// run on the current head.

import { createCheckRun, startQueuedCheckRun } from "../github/check-run.ts";
import type { GitHubClient, RepoRef } from "../github/octokit.ts";
import { type SecondaryRetryOptions, withSecondaryRetry } from "../github/retry-secondary.ts";
import { describeFailure } from "./failure-text.ts";
import { cancelCheckRun } from "./queued-check-runs.ts";
import { queueKey, type ReviewRequest } from "./review-request.ts";
import type { JobLogger } from "./run-review.ts";

export interface CheckRunStarterOptions {
  readonly octokit: GitHubClient;
  readonly repoRef: RepoRef;
  readonly request: ReviewRequest;
  readonly checkRunName: string;
  /** The queued run made for this request while it waited, if any. */
  readonly queuedRunId: number | null;
  readonly retry: SecondaryRetryOptions;
  readonly now: () => number;
  readonly log: JobLogger;
}

/** Returns `start(sha)`: the id of the in_progress run for `sha` (the queued one is used once). */
export function createCheckRunStarter(options: CheckRunStarterOptions): (sha: string) => Promise<number> {
  const { octokit, repoRef, request, retry, now } = options;
  let queued = options.queuedRunId;
  return async (sha) => {
    const claimed = queued;
    queued = null;
    const output = { title: "Loupe: reviewing", summary: `Loupe is reviewing \`${sha}\`.` };
    if (claimed !== null && sha === request.headSha) {
      const started = { ...repoRef, checkRunId: claimed, startedAt: new Date(now()), output };
      // If GitHub refuses the move to in_progress, the run still exists: the review goes on and
      // completes it as usual, so it can never be left queued.
      await withSecondaryRetry(() => startQueuedCheckRun(octokit, started), retry).catch((error: unknown) =>
        options.log.warn(
          { key: queueKey(request), error: describeFailure(error) },
          "queued check run not started",
        ),
      );
      return claimed;
    }
    if (claimed !== null) {
      await cancelCheckRun(
        octokit,
        { ...repoRef, checkRunId: claimed },
        { kind: "superseded", headSha: sha },
        { now, log: options.log, key: queueKey(request) },
      );
    }
    return await withSecondaryRetry(
      () =>
        createCheckRun(octokit, {
          ...repoRef,
          name: options.checkRunName,
          headSha: sha,
          pullNumber: request.pullNumber,
          startedAt: new Date(now()),
          output,
        }),
      retry,
    );
  };
}
