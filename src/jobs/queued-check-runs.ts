// Check runs for reviews that wait their turn: the queue announces a request that cannot start at
// once (check-runs.ts makes its `queued` run), the job takes that run over when it starts, and a
// request that leaves the line without running has its run cancelled with the reason. Keyed by
// the request object itself: the queue hands the same object to every hook and the runner.

import type { CheckRuns } from "../check-runs/check-runs.ts";
import type { GitHubClient } from "../github/octokit.ts";
import type { CancelReason, ReviewRequest } from "./review-request.ts";

export interface QueuedCheckRuns {
  /** Creates the queued run in the background (a failure only means the job creates its own). */
  announce(request: ReviewRequest, octokit: GitHubClient): void;
  /** The job takes the announced run over: its id, or null when there is none. */
  claim(request: ReviewRequest): Promise<number | null>;
  /** Completes the announced run `cancelled`, saying why. */
  drop(request: ReviewRequest, reason: CancelReason): Promise<void>;
}

interface Announcement {
  readonly octokit: GitHubClient;
  readonly created: Promise<number | null>;
}

export function createQueuedCheckRuns(checkRuns: CheckRuns): QueuedCheckRuns {
  const announced = new WeakMap<ReviewRequest, Announcement>();
  const take = (request: ReviewRequest): Announcement | undefined => {
    const announcement = announced.get(request);
    announced.delete(request);
    return announcement;
  };
  return {
    announce(request, octokit) {
      const created = checkRuns.announce(octokit, request, request.headSha);
      announced.set(request, { octokit, created });
    },
    claim: (request) => take(request)?.created ?? Promise.resolve(null),
    async drop(request, reason) {
      const announcement = take(request);
      const checkRunId = await announcement?.created;
      if (announcement === undefined || checkRunId === undefined || checkRunId === null) return;
      await checkRuns.cancel(announcement.octokit, request, checkRunId, reason);
    },
  };
}
