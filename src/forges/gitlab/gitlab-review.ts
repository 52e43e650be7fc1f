// What GitLab gives the one review job (forge/run-review.ts) for a merge request: the GitLab host,
// a commit status on the head (pending once the merge request is read; success, failed or
// canceled at the end, by the same rule the check run concludes by) and one summary note updated
// in place, which carries the check run's texts. A status GitLab refuses never fails the review:
// the pending one is logged and the review goes on (its markers then carry the review's start
// time in place of the status's id, unique to this run as the id would be); a status or note
// refused at the end is logged: the review itself was published or not by then, and the queue
// settles the job either way. In a CI job (no commit status of its own) only the note is written.

import type { GitLabConfig } from "../../config/gitlab-config.ts";
import type { ForgeReview, ReviewReporter } from "../../forge/run-review.ts";
import type { ReviewJob } from "../../jobs/review-job.ts";
import { errorDetail } from "../../log/error-detail.ts";
import type { JobLogger } from "../../log/job-logger.ts";
import { skipped } from "../../pipeline/review-outcome.ts";
import type { ReviewPorts } from "../../pipeline/review-ports.ts";
import type { CheckConclusion, CheckRunOutput } from "../../report/review-report.ts";
import type { WorkspaceHandle } from "../../workspace/types.ts";
import { type GitLabApi, type GitLabHealth, gitLabApi, gitLabStatus } from "./gitlab-api.ts";
import { type GitLabHost, gitLabHost } from "./gitlab-host.ts";
import { mergeRequestStatus, type StatusState } from "./merge-request-status.ts";
import { GITLAB_CI_WORDS, gitLabWords } from "./words.ts";

export interface GitLabReviewOptions<W extends WorkspaceHandle> {
  readonly job: ReviewJob;
  readonly ports: ReviewPorts<W>;
  /** configProject: GITLAB_CONFIG_PROJECT, the organisation layer; absent (the CI component): none. */
  readonly gitlab: Pick<NonNullable<GitLabConfig>, "url" | "token" | "statusName"> &
    Partial<Pick<NonNullable<GitLabConfig>, "configProject">>;
  /** The job's log (forge/run-review.ts's jobLog). */
  readonly log: JobLogger;
  /** The token's own username, looked up once per process. */
  readonly self: () => Promise<string>;
  readonly sleep: (ms: number) => Promise<void>;
  readonly now: () => number;
  /** The process's record of whether GitLab answers (logs and metrics). */
  readonly health?: GitLabHealth;
  /** false in a CI job: the job is the merge request's status, Loupe sets none of its own. */
  readonly commitStatus?: boolean;
}

/** A check run's conclusion as a commit status: only fail_on fails; Loupe's own trouble never blocks. */
const STATE: Record<CheckConclusion, StatusState> = {
  success: "success",
  failure: "failed",
  cancelled: "canceled",
  action_required: "failed",
  neutral: "success",
  skipped: "success",
};

export async function gitLabReview<W extends WorkspaceHandle>(
  options: GitLabReviewOptions<W>,
): Promise<ForgeReview<W>> {
  const { request } = options.job;
  const commitStatus = options.commitStatus ?? true;
  const startedAt = options.now();
  const api = gitLabApi({
    url: options.gitlab.url,
    token: options.gitlab.token,
    retry: {
      sleep: options.sleep,
      now: options.now,
      deadline: startedAt + options.ports.reviewTimeoutMs + 60_000,
    },
    ...(options.health === undefined ? {} : { health: options.health }),
  });
  // The rerun command the texts give mentions the token's user; without it they still say how. A
  // pipeline's job (no commit status of its own) is retried instead.
  const words = commitStatus ? gitLabWords(await options.self().catch(() => null)) : GITLAB_CI_WORDS;
  const host = gitLabHost({
    ...{ words, api, target: request, url: options.gitlab.url, token: options.gitlab.token },
    fetchWorkspace: options.ports.fetchWorkspace,
    self: options.self,
    configProject: options.gitlab.configProject ?? null,
  });
  return {
    host,
    words,
    reporter: statusReporter(options, { api, host, startedAt, commitStatus }),
  };
}

function statusReporter<W extends WorkspaceHandle>(
  options: GitLabReviewOptions<W>,
  input: {
    readonly api: GitLabApi;
    readonly host: GitLabHost<W>;
    readonly startedAt: number;
    readonly commitStatus: boolean;
  },
): ReviewReporter {
  const { request } = options.job;
  const { host, startedAt, commitStatus } = input;
  const { log } = options;
  const status = mergeRequestStatus(input.api, {
    target: request,
    name: options.gitlab.statusName,
    self: options.self,
  });
  let headSha = request.headSha;
  let read = false;
  return {
    open: async (sha) => {
      headSha = sha;
      read = true;
      if (!commitStatus) return startedAt;
      try {
        return await status.set(
          sha,
          await host.statusRef(),
          "pending",
          "Loupe is reviewing this merge request",
        );
      } catch (error) {
        log.warn({ error: errorDetail(error) }, "pending commit status not written; the review goes on");
        return startedAt;
      }
    },
    // Before the merge request was read, a 404 is no such merge request (or a project the token
    // cannot see): GitLab's "Test" button sends a sample event naming the project's last merge
    // request, which may be long gone — nothing to report on, and nowhere to report it.
    failed: async (error) => {
      if (read || gitLabStatus(error) !== 404) return null;
      log.info(
        { mr: request.pullNumber, project: `${request.owner}/${request.repo}` },
        "skipped: GitLab has no such merge request the token can read (a Test event's sample, or one deleted)",
      );
      const detail = `GitLab has no merge request !${request.pullNumber} the token can read.`;
      return { outcome: skipped("closed", detail, false), report: false };
    },
    // The summary note, then the final status (on the ref read with the merge request; none if it was not read).
    complete: async (ending) => {
      const ref = commitStatus ? await host.statusRef().catch(() => null) : null;
      const reported = await (async () => {
        await status.summary(summaryNoteText(ending.output));
        if (ref === null) return false;
        await status.set(headSha, ref, STATE[ending.conclusion], ending.output.title);
        return true;
      })().catch((error: unknown) => {
        log.warn({ error: errorDetail(error) }, "commit status or summary note not written");
        return false;
      });
      return { reported, headSha };
    },
  };
}

/** The summary note's text: what the check run would show, under its title. */
export function summaryNoteText(output: CheckRunOutput): string {
  const { title, summary, text } = output;
  return [`### ${title}`, summary, ...(text === undefined ? [] : [text])].join("\n\n");
}
