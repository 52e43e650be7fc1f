// One review job for a GitLab merge request: the same pipeline on the GitLab host, wrapped in a
// commit status on the head (pending once the merge request is read; success, failed or canceled
// at the end, by the same rule the check run concludes by) and one summary note updated in place,
// which carries the check run's texts. A status GitLab refuses never fails the review: the pending
// one is logged and the review goes on (its markers then carry the review's start time in place
// of the status's id, unique to this run as the id would be); a status or note refused at the
// end is logged: the review itself was published or not by then, and the queue settles the job
// either way.

import type { AppConfig } from "../../config/app-config.ts";
import type { GitLabConfig } from "../../config/gitlab-config.ts";
import { budgetOwnerOf } from "../../domain/budget.ts";
import { queueKey } from "../../domain/review-request.ts";
import { type Ending, endingFor } from "../../jobs/ending.ts";
import { type AppBudget, reviewBudgetFor } from "../../jobs/review-budget.ts";
import type { ReviewJob } from "../../jobs/review-job.ts";
import type { JobSettlement } from "../../jobs/review-queue.ts";
import { errorDetail } from "../../log/error-detail.ts";
import type { JobLogger } from "../../log/job-logger.ts";
import type { ReviewEnded } from "../../metrics/review-ended.ts";
import { cancellation, type ReviewOutcome, skipped } from "../../pipeline/review-outcome.ts";
import type { ReviewPorts } from "../../pipeline/review-ports.ts";
import { reviewPullRequest } from "../../pipeline/review-pull-request.ts";
import type { CheckConclusion, CheckRunOutput } from "../../report/review-report.ts";
import type { WorkspaceHandle } from "../../workspace/types.ts";
import { type GitLabHealth, gitLabApi, gitLabStatus, tokenUser } from "./gitlab-api.ts";
import { gitLabHost } from "./gitlab-host.ts";
import { mergeRequestStatus, type StatusState } from "./merge-request-status.ts";
import { GITLAB_CI_WORDS, gitLabWords } from "./words.ts";

export interface RunGitLabReviewOptions<W extends WorkspaceHandle> {
  readonly job: ReviewJob;
  readonly signal: AbortSignal;
  readonly ports: ReviewPorts<W>;
  readonly config: Pick<AppConfig, "autoReviewAuthors">;
  /** configProject: GITLAB_CONFIG_PROJECT, the organisation layer; absent (the CI component): none. */
  readonly gitlab: Pick<NonNullable<GitLabConfig>, "url" | "token" | "statusName"> &
    Partial<Pick<NonNullable<GitLabConfig>, "configProject">>;
  readonly log: JobLogger;
  /** The token's own username, looked up once per process. */
  readonly self: () => Promise<string>;
  readonly sleep: (ms: number) => Promise<void>;
  readonly now?: () => number;
  readonly onEnded?: (ending: ReviewEnded) => void;
  readonly budget?: AppBudget;
  /** The process's record of whether GitLab answers (logs and metrics). */
  readonly health?: GitLabHealth;
  /** false in a CI job: the job is the merge request's status, Loupe sets none of its own. */
  readonly commitStatus?: boolean;
  /** The outcome as the caller gates it (a CI job's `fail-on`), before it is reported. */
  readonly gate?: (outcome: ReviewOutcome) => ReviewOutcome;
}

/** The queue's settlement, and the review's outcome and ending for a caller that reports them. */
export interface GitLabReviewSettlement extends JobSettlement {
  readonly outcome: ReviewOutcome;
  readonly ending: Ending;
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

export async function runGitLabReview<W extends WorkspaceHandle>(
  options: RunGitLabReviewOptions<W>,
): Promise<GitLabReviewSettlement> {
  const { request } = options.job;
  const commitStatus = options.commitStatus ?? true;
  const now = options.now ?? Date.now;
  const startedAt = now();
  const key = queueKey(request);
  const log: JobLogger = {
    info: (obj, msg) => options.log.info({ key, ...obj }, msg),
    warn: (obj, msg) => options.log.warn({ key, ...obj }, msg),
  };
  const api = gitLabApi({
    url: options.gitlab.url,
    token: options.gitlab.token,
    retry: { sleep: options.sleep, now, deadline: startedAt + options.ports.reviewTimeoutMs + 60_000 },
    ...(options.health === undefined ? {} : { health: options.health }),
  });
  const status = mergeRequestStatus(api, {
    target: request,
    name: options.gitlab.statusName,
    self: options.self,
  });
  let headSha = request.headSha;
  // The rerun command the texts give mentions the token's user; without it they still say how. A
  // pipeline's job (no commit status of its own) is retried instead.
  const words = commitStatus ? gitLabWords(await options.self().catch(() => null)) : GITLAB_CI_WORDS;
  let read = false;
  let missing = false;
  await using host = gitLabHost({
    ...{ words, api, target: request, url: options.gitlab.url, token: options.gitlab.token },
    fetchWorkspace: options.ports.fetchWorkspace,
    self: options.self,
    configProject: options.gitlab.configProject ?? null,
  });
  const reviewed = await reviewPullRequest(host, options.ports, {
    signal: options.signal,
    now: options.now ?? Date.now,
    asked: request.rerun,
    askedFull: request.trigger === "command.full_review",
    authorPolicy: options.config.autoReviewAuthors,
    prices: options.budget?.settings.prices ?? null,
    log,
    ...reviewBudgetFor(options.budget, budgetOwnerOf(request), now),
    started: async (pullRequest) => {
      headSha = pullRequest.headSha;
      read = true;
      if (!commitStatus) return startedAt;
      try {
        return await status.set(
          headSha,
          await host.statusRef(),
          "pending",
          "Loupe is reviewing this merge request",
        );
      } catch (error) {
        log.warn({ error: errorDetail(error) }, "pending commit status not written; the review goes on");
        return startedAt;
      }
    },
  }).catch((error: unknown): ReviewOutcome => {
    const ended = endedEarly(error, { read, request, log, signal: options.signal });
    missing = ended.kind === "skipped";
    return ended;
  });
  if (missing) return { remember: false, outcome: reviewed, ending: endingFor(reviewed, words) };
  const outcome = options.gate?.(reviewed) ?? reviewed;
  // The summary note is GitLab Markdown: model text in it is written for GitLab's references.
  const ending = endingFor(outcome, words, undefined, undefined, "wide");
  const ref = commitStatus ? await host.statusRef().catch(() => null) : null;
  const reported = await report(status, headSha, ref, ending).catch((error: unknown) => {
    log.warn({ error: errorDetail(error) }, "commit status or summary note not written");
    return false;
  });
  options.onEnded?.({
    repository: `${request.owner}/${request.repo}`,
    pullNumber: request.pullNumber,
    headSha,
    conclusion: reported ? ending.conclusion : "none",
    result: outcome.kind === "reviewed" ? outcome.result : null,
    cost: outcome.kind === "reviewed" ? outcome.cost : null,
    ...(outcome.kind === "reviewed" && outcome.findingEvents ? { findingEvents: outcome.findingEvents } : {}),
    durationMs: now() - startedAt,
  });
  return { remember: ending.remember, outcome, ending };
}

/**
 * A review that threw. Before the merge request was read, a 404 is no such merge request (or a
 * project the token cannot see): GitLab's "Test" button sends a sample event naming the project's
 * last merge request, which may be long gone — nothing to report on, and nowhere to report it.
 */
function endedEarly(
  error: unknown,
  input: {
    readonly read: boolean;
    readonly request: ReviewJob["request"];
    readonly log: JobLogger;
    readonly signal: AbortSignal;
  },
): ReviewOutcome {
  const { request, log } = input;
  if (!input.read && gitLabStatus(error) === 404) {
    log.info(
      { mr: request.pullNumber, project: `${request.owner}/${request.repo}` },
      "skipped: GitLab has no such merge request the token can read (a Test event's sample, or one deleted)",
    );
    return skipped("closed", `GitLab has no merge request !${request.pullNumber} the token can read.`, false);
  }
  log.warn({ error: errorDetail(error) }, "review ended early");
  return cancellation(input.signal) ?? { kind: "failed", error };
}

/** The summary note, then the final status (on the ref read with the merge request; none if it was not read). */
async function report(
  status: ReturnType<typeof mergeRequestStatus>,
  headSha: string,
  ref: string | null,
  ending: ReturnType<typeof endingFor>,
): Promise<boolean> {
  await status.summary(summaryNoteText(ending.output));
  if (ref === null) return false;
  await status.set(headSha, ref, STATE[ending.conclusion], ending.output.title);
  return true;
}

/** The summary note's text: what the check run would show, under its title. */
export function summaryNoteText(output: CheckRunOutput): string {
  const { title, summary, text } = output;
  return [`### ${title}`, summary, ...(text === undefined ? [] : [text])].join("\n\n");
}

/** The runner of GitLab's jobs in the App's queues: one token user lookup for the process. */
export function gitLabRunner<W extends WorkspaceHandle>(
  options: Omit<RunGitLabReviewOptions<W>, "job" | "signal" | "self" | "gitlab"> & {
    readonly gitlab?: RunGitLabReviewOptions<W>["gitlab"] | undefined;
  },
): (job: ReviewJob, signal: AbortSignal) => Promise<JobSettlement> {
  const { gitlab } = options;
  if (gitlab === undefined)
    return async () => {
      throw new Error("a GitLab job, and GitLab is not configured in this process");
    };
  const self = tokenUser(
    gitLabApi({
      url: gitlab.url,
      token: gitlab.token,
      retry: { sleep: options.sleep, now: Date.now, deadline: 0 },
      ...(options.health === undefined ? {} : { health: options.health }),
    }),
  );
  return (job, signal) => runGitLabReview({ ...options, gitlab, job, signal, self });
}
