// The pull request a job reviews. Push events carry it in the payload; re-runs (check_run,
// check_suite) only name a SHA and a number, so they read the current state with pulls.get and
// review the current head — a re-run of an outdated check reviews what the PR is now.

import { labelNames } from "../../conversation/pause-state.ts";
import type { PullRequest } from "../../domain/pull-request.ts";
import type { GitHubReview, ReviewTarget } from "../../domain/review-request.ts";
import type { GitHubClient } from "./octokit.ts";
import { authorRole } from "./webhooks/author-role.ts";

/**
 * The target, and what the delivery said of the pull request (nothing for a re-run); or, for a
 * reply in a thread, only the pull request: it names no head, and the current one is read.
 */
export type GitHubTarget =
  | (ReviewTarget & Pick<GitHubReview, "rerun" | "pullRequest">)
  | (Omit<ReviewTarget, "headSha"> & { readonly pullRequest: null });

export async function resolvePullRequest(octokit: GitHubClient, request: GitHubTarget): Promise<PullRequest> {
  // A job queued by an older Loupe carries no author: it is read again, like a re-run.
  if (
    "rerun" in request &&
    request.pullRequest !== null &&
    !request.rerun &&
    request.pullRequest.author !== undefined
  ) {
    const { baseRef: _baseRef, ...snapshot } = request.pullRequest;
    return { number: request.pullNumber, headSha: request.headSha, ...snapshot };
  }
  const { data } = await octokit.rest.pulls.get({
    owner: request.owner,
    repo: request.repo,
    pull_number: request.pullNumber,
  });
  return {
    number: request.pullNumber,
    headSha: data.head.sha,
    baseSha: data.base.sha,
    title: data.title,
    body: data.body ?? null,
    url: data.html_url,
    draft: data.draft === true,
    author: {
      login: data.user?.login ?? null,
      isBot: data.user?.type === "Bot",
      role: authorRole(data.author_association),
    },
    open: data.state === "open",
    labels: labelNames(data.labels),
  };
}
