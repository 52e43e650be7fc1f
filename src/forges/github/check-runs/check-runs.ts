// The whole life of Loupe's check run behind one small object. A request that waits its turn is
// `announce`d (a `queued` run on its head commit, so the pull request shows Loupe has it); one that
// leaves the line without running is `cancel`led with the reason. A starting review `open`s its
// run: it takes over the queued run (or the run an earlier attempt of the same job started) when it
// reviews that same commit, otherwise it closes that run as superseded and creates a new one. The
// open run takes throttled `progress()` and ends with `complete(ending)`, which waits for the last
// progress update first so a late PATCH can never overwrite the completed run. Every write retries
// GitHub's secondary rate limits within a deadline; every text is clamped by forges/github/check-run.ts.

import type { CancelReason } from "../../../domain/cancel-reason.ts";
import { cancelledOutput } from "../../../jobs/ending-texts.ts";
import type { KnownRun } from "../../../jobs/review-job.ts";
import type { RoundProgress } from "../../../llm/types.ts";
import { errorDetail } from "../../../log/error-detail.ts";
import type { JobLogger } from "../../../log/job-logger.ts";
import type { CheckRunOutput } from "../../../report/review-report.ts";
import {
  type CompleteCheckRunInput,
  completeCheckRun,
  createCheckRun,
  findOpenCheckRun,
  startQueuedCheckRun,
  updateCheckRunProgress,
} from "../check-run.ts";
import type { GitHubClient, RepoRef } from "../octokit.ts";
import { withSecondaryRetry } from "../retry-secondary.ts";
import { GITHUB_WORDS } from "../words.ts";
import { renderProgressOutput } from "./progress-output.ts";
import { createProgressThrottle } from "./progress-throttle.ts";

export interface RunTarget extends RepoRef {
  readonly pullNumber: number;
}

export interface OpenCheckRun {
  readonly id: number;
  readonly headSha: string;
  /** At most one update per interval, never awaited by the caller, at most one in flight. */
  progress(progress: RoundProgress): void;
  /** Completes the run (after the last progress update); failures are logged, never thrown. */
  complete(ending: Pick<CompleteCheckRunInput, "conclusion" | "output">): Promise<void>;
}

export interface OpenInput {
  readonly octokit: GitHubClient;
  readonly target: RunTarget;
  /** The commit this review is about to review. */
  readonly headSha: string;
  /** A run made earlier for this job (queued, or started by an earlier attempt), and its commit. */
  readonly earlier: KnownRun | null;
  /** Epoch ms after which rate-limit waits stop. */
  readonly deadline: number;
  /** With no earlier run known: look on GitHub for an open one made for this job (see ReviewJob). */
  readonly findOpen?: boolean;
}

export interface CheckRuns {
  /** Creates the `queued` run; its id, or null when GitHub refused (the job then makes its own). */
  announce(octokit: GitHubClient, target: RunTarget, headSha: string): Promise<number | null>;
  /** Completes a run that never reviewed anything `cancelled`, saying why; never throws. */
  cancel(octokit: GitHubClient, target: RunTarget, checkRunId: number, reason: CancelReason): Promise<void>;
  /** The in_progress run the review reports on. Throws only when no run could be made at all. */
  open(input: OpenInput): Promise<OpenCheckRun>;
}

export interface CheckRunsOptions {
  readonly name: string;
  readonly progressIntervalMs: number;
  readonly log: JobLogger;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly now?: () => number;
}

/** How long a completion may keep retrying a secondary rate limit. */
const COMPLETE_WINDOW_MS = 5 * 60_000;

/** What the steps below share. */
interface Context {
  readonly options: CheckRunsOptions;
  readonly now: () => number;
  readonly log: JobLogger;
}

const label = (target: RunTarget) => `${target.owner}/${target.repo}#${target.pullNumber}`;
const retryUntil = (c: Context, deadline: number) => ({ sleep: c.options.sleep, now: c.now, deadline });

async function cancel(
  c: Context,
  octokit: GitHubClient,
  target: RunTarget,
  checkRunId: number,
  reason: CancelReason,
): Promise<void> {
  await completeCheckRun(octokit, {
    owner: target.owner,
    repo: target.repo,
    checkRunId,
    conclusion: "cancelled",
    output: cancelledOutput(reason, GITHUB_WORDS),
    completedAt: new Date(c.now()),
  }).catch((error: unknown) =>
    c.log.warn({ key: label(target), error: errorDetail(error) }, "queued check run not completed"),
  );
}

async function announce(c: Context, octokit: GitHubClient, target: RunTarget, headSha: string) {
  return await createCheckRun(octokit, {
    ...target,
    name: c.options.name,
    headSha,
    startedAt: null,
    output: queuedOutput(headSha),
  }).catch((error: unknown) => {
    c.log.warn({ key: label(target), error: errorDetail(error) }, "queued check run not created");
    return null;
  });
}

async function findOpen(c: Context, input: OpenInput): Promise<KnownRun | null> {
  const { target, headSha } = input;
  const where = { ...target, headSha, name: c.options.name };
  const id = await findOpenCheckRun(input.octokit, where).catch((error: unknown) => {
    c.log.warn({ key: label(target), error: errorDetail(error) }, "open check runs not listed");
    return null;
  });
  return id === null ? null : { id, headSha };
}

async function start(c: Context, input: OpenInput): Promise<number> {
  const { octokit, target, headSha } = input;
  const earlier = input.earlier ?? (input.findOpen === true ? await findOpen(c, input) : null);
  const output = reviewingOutput(headSha);
  if (earlier !== null && earlier.headSha === headSha) {
    const started = { ...target, checkRunId: earlier.id, startedAt: new Date(c.now()), output };
    // If GitHub refuses the move to in_progress, the run still exists: the review goes on and
    // completes it as usual, so it can never be left queued.
    await withSecondaryRetry(
      () => startQueuedCheckRun(octokit, started),
      retryUntil(c, input.deadline),
    ).catch((error: unknown) =>
      c.log.warn({ key: label(target), error: errorDetail(error) }, "queued check run not started"),
    );
    return earlier.id;
  }
  // The pull request moved on while this job waited: the earlier run is about an older commit.
  if (earlier !== null) await cancel(c, octokit, target, earlier.id, { kind: "superseded", headSha });
  const create = { ...target, name: c.options.name, headSha, startedAt: new Date(c.now()), output };
  return await withSecondaryRetry(() => createCheckRun(octokit, create), retryUntil(c, input.deadline));
}

async function open(c: Context, input: OpenInput): Promise<OpenCheckRun> {
  const { octokit, target, headSha } = input;
  const { log, now } = c;
  const id = await start(c, input);
  const ref = { owner: target.owner, repo: target.repo, checkRunId: id };
  const throttle = createProgressThrottle({
    intervalMs: c.options.progressIntervalMs,
    now,
    send: (p) => updateCheckRunProgress(octokit, ref, renderProgressOutput(p, headSha)),
    onError: (error) => log.warn({ key: label(target), error: errorDetail(error) }, "progress update failed"),
  });
  let completed = false;
  return {
    id,
    headSha,
    progress: (p) => throttle.report(p),
    async complete(ending) {
      if (completed) return;
      completed = true;
      await throttle.settle();
      await withSecondaryRetry(
        () =>
          completeCheckRun(octokit, {
            ...ref,
            conclusion: ending.conclusion,
            output: ending.output,
            completedAt: new Date(now()),
          }),
        retryUntil(c, now() + COMPLETE_WINDOW_MS),
      ).catch((error: unknown) =>
        log.warn({ key: label(target), error: errorDetail(error) }, "check run completion failed"),
      );
      log.info({ key: label(target), conclusion: ending.conclusion }, "check run completed");
    },
  };
}

export function createCheckRuns(options: CheckRunsOptions): CheckRuns {
  const c: Context = { options, now: options.now ?? Date.now, log: options.log };
  return {
    announce: (octokit, target, headSha) => announce(c, octokit, target, headSha),
    cancel: (octokit, target, checkRunId, reason) => cancel(c, octokit, target, checkRunId, reason),
    open: (input) => open(c, input),
  };
}

function queuedOutput(headSha: string): CheckRunOutput {
  return {
    title: "Loupe: queued",
    summary: `Loupe will review \`${headSha}\` as soon as a review slot is free.`,
  };
}

function reviewingOutput(headSha: string): CheckRunOutput {
  return { title: "Loupe: reviewing", summary: `Loupe is reviewing \`${headSha}\`.` };
}
