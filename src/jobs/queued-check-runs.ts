// Check runs for reviews that wait their turn. A request the queue cannot start at once gets a
// `queued` check run on its head commit, so the pull request shows that Loupe has it; the job
// takes that run over when it starts, and a request that leaves the line without running (a newer
// push replaced it, or Loupe is shutting down) has its run completed `cancelled` with the reason.
// Keyed by the request object itself: the queue hands the same object to every hook and the runner.

import { completeCheckRun, createCheckRun } from "../github/check-run.ts";
import type { GitHubClient, RepoRef } from "../github/octokit.ts";
import { cancelledOutput, describeFailure } from "./failure-text.ts";
import { type CancelReason, queueKey, type ReviewRequest } from "./review-request.ts";
import type { JobLogger } from "./run-review.ts";

export interface QueuedCheckRunsOptions {
  readonly checkRunName: string;
  readonly log: JobLogger;
  readonly now?: () => number;
}

export interface QueuedCheckRuns {
  /** Creates the queued run in the background (a failure only means the job creates its own). */
  announce(request: ReviewRequest, octokit: GitHubClient): void;
  /** The job takes the announced run over: its id, or null when there is none. */
  claim(request: ReviewRequest): Promise<number | null>;
  /** Completes the announced run `cancelled`, saying why. */
  drop(request: ReviewRequest, reason: CancelReason): Promise<void>;
}

/** Completes a run that never reviewed anything `cancelled`, saying why; failures are only logged. */
export async function cancelCheckRun(
  octokit: GitHubClient,
  ref: RepoRef & { readonly checkRunId: number },
  reason: CancelReason,
  context: { readonly now: () => number; readonly log: JobLogger; readonly key: string },
): Promise<void> {
  await completeCheckRun(octokit, {
    ...ref,
    conclusion: "cancelled",
    output: cancelledOutput(reason),
    completedAt: new Date(context.now()),
  }).catch((error: unknown) =>
    context.log.warn({ key: context.key, error: describeFailure(error) }, "queued check run not completed"),
  );
}

interface Announcement {
  readonly octokit: GitHubClient;
  readonly created: Promise<number | null>;
}

export function createQueuedCheckRuns(options: QueuedCheckRunsOptions): QueuedCheckRuns {
  const now = options.now ?? Date.now;
  const announced = new WeakMap<ReviewRequest, Announcement>();
  const take = (request: ReviewRequest): Announcement | undefined => {
    const announcement = announced.get(request);
    announced.delete(request);
    return announcement;
  };
  return {
    announce(request, octokit) {
      const created = createCheckRun(octokit, {
        owner: request.owner,
        repo: request.repo,
        name: options.checkRunName,
        headSha: request.headSha,
        pullNumber: request.pullNumber,
        startedAt: null,
        output: {
          title: "Loupe: queued",
          summary: `Loupe will review \`${request.headSha}\` as soon as a review slot is free.`,
        },
      }).catch((error: unknown) => {
        options.log.warn(
          { key: queueKey(request), error: describeFailure(error) },
          "queued check run not created",
        );
        return null;
      });
      announced.set(request, { octokit, created });
    },
    claim: (request) => take(request)?.created ?? Promise.resolve(null),
    async drop(request, reason) {
      const announcement = take(request);
      const checkRunId = await announcement?.created;
      if (announcement === undefined || checkRunId === undefined || checkRunId === null) return;
      await cancelCheckRun(
        announcement.octokit,
        { owner: request.owner, repo: request.repo, checkRunId },
        reason,
        { now, log: options.log, key: queueKey(request) },
      );
    },
  };
}
