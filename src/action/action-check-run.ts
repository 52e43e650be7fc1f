// The action's check run, through the App's own check-run life (check-runs/): opened when the
// pipeline knows the head, given progress, completed with the same texts. A token that may not
// create one (a fork's read-only token, or a workflow without `checks: write`) answers 403: the
// review goes on, and the job's status and step summary stand in for the check run.

import {
  type CheckRuns,
  createCheckRuns,
  type OpenCheckRun,
  type RunTarget,
} from "../forges/github/check-runs/check-runs.ts";
import type { GitHubClient } from "../forges/github/octokit.ts";
import { httpStatus } from "../forges/github/octokit.ts";
import { GITHUB_WORDS } from "../forges/github/words.ts";
import { errorDetail } from "../log/error-detail.ts";
import type { JobLogger } from "../log/job-logger.ts";
import { describeFailure } from "../pipeline/describe-failure.ts";

export const CHECK_RUN_NAME = "Loupe review";
const PROGRESS_INTERVAL_MS = 10_000;

export const NO_CHECKS_PERMISSION =
  "The token may not create check runs (GitHub answered 403): this job's status and summary stand in for Loupe's check run. Give the workflow `checks: write` for one.";

export interface ActionCheckRun {
  /** Opens the run on the head; answers its id, or 0 when there is none (the review goes on). */
  open(headSha: string): Promise<number>;
  current(): OpenCheckRun | null;
  /** Why there is no check run, in a sentence; null when there is one (or none was asked for). */
  missing(): string | null;
}

export function actionCheckRun(options: {
  readonly octokit: GitHubClient;
  readonly target: RunTarget;
  readonly deadline: number;
  readonly log: JobLogger;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}): ActionCheckRun {
  const runs: CheckRuns = createCheckRuns({
    name: CHECK_RUN_NAME,
    progressIntervalMs: PROGRESS_INTERVAL_MS,
    log: options.log,
    sleep: options.sleep,
  });
  let open: OpenCheckRun | null = null;
  let missing: string | null = null;
  return {
    current: () => open,
    missing: () => missing,
    async open(headSha) {
      try {
        open = await runs.open({ ...options, headSha, earlier: null });
        return open.id;
      } catch (error) {
        options.log.warn({ error: errorDetail(error) }, "check run not created");
        missing =
          httpStatus(error) === 403
            ? NO_CHECKS_PERMISSION
            : `Loupe's check run could not be created: ${describeFailure(error, GITHUB_WORDS.forge)}`;
        return 0;
      }
    },
  };
}
