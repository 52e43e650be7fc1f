// At start: completes the check runs an earlier Loupe process created and never completed (it
// was killed without its shutdown), as `cancelled` with the restart text, so none stays queued or
// in progress. A run GitHub no longer has, or this installation can no longer reach, is forgotten;
// any other failure leaves it recorded for the next start.

import { cancelledOutput } from "../../../jobs/ending-texts.ts";
import { errorDetail } from "../../../log/error-detail.ts";
import type { Logger } from "../../../log/job-logger.ts";
import { completeCheckRun } from "../check-run.ts";
import { type GitHubClient, httpStatus } from "../octokit.ts";
import { GITHUB_WORDS } from "../words.ts";
import type { OpenRunsJournal } from "./open-runs-journal.ts";

const GONE = new Set([401, 403, 404, 410, 422]);

export async function completeLeftOpenRuns(options: {
  readonly journal: OpenRunsJournal;
  readonly auth: (installationId: number) => Promise<GitHubClient>;
  readonly log: Pick<Logger, "warn">;
  readonly now?: () => number;
}): Promise<void> {
  const now = options.now ?? Date.now;
  for (const run of await options.journal.leftOpen()) {
    try {
      const octokit = await options.auth(run.installationId);
      await completeCheckRun(octokit, {
        owner: run.owner,
        repo: run.repo,
        checkRunId: run.checkRunId,
        conclusion: "cancelled",
        output: cancelledOutput({ kind: "shutdown" }, GITHUB_WORDS),
        completedAt: new Date(now()),
      });
      await options.journal.settle(run);
    } catch (error) {
      const status = httpStatus(error);
      if (status !== undefined && GONE.has(status)) {
        await options.journal.settle(run);
        continue;
      }
      options.log.warn(
        { run: `${run.owner}/${run.repo}#${run.checkRunId}`, error: errorDetail(error) },
        "left-open check run not completed; will try again at the next start",
      );
    }
  }
}
