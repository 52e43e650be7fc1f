// What a GitHub delivery asks Loupe to do, after the pure mapping: review one pull request at one
// head SHA, or nothing (with the reason). A review is the port's target plus what the event said
// (delivery id, trigger, the pull request); the App's request adds the installation it was delivered
// to, the Action's has none. The pipeline and the port never learn a GitHub App's words.

import type { PullRequestAuthor } from "./author-policy.ts";

/** One pull request at one head: what a review, a reply or a queue names. */
export interface ReviewTarget {
  readonly owner: string;
  readonly repo: string;
  readonly pullNumber: number;
  /** The head the request names; a host may find the pull request has moved on since. */
  readonly headSha: string;
}

export type ReviewTrigger =
  | "pull_request.opened"
  | "pull_request.reopened"
  | "pull_request.synchronize"
  | "pull_request.ready_for_review"
  | "check_run.rerequested"
  | "check_run.requested_action"
  | "check_suite.rerequested"
  | "command.review"
  | "command.full_review"
  | "merge_request.opened"
  | "merge_request.reopened"
  | "merge_request.updated"
  | "merge_request.ready";

/** PR metadata carried by pull_request events; re-runs read it with pulls.get instead. */
export interface PullRequestSnapshot {
  readonly title: string;
  readonly body: string | null;
  readonly url: string;
  readonly baseRef: string;
  readonly baseSha: string;
  readonly draft: boolean;
  readonly author: PullRequestAuthor;
  readonly open: boolean;
  /** Label names (the pause label holds automatic reviews back). */
  readonly labels: readonly string[];
}

/**
 * A review on GitHub as an event asks for it: the target (the head SHA the event names; for re-runs
 * the host confirms it with pulls.get) and what the event said. The Action's whole request.
 */
export interface GitHubReview extends ReviewTarget {
  /** `X-GitHub-Delivery` (Probot's `context.id`), or the Action's workflow run: the same on a redelivery. */
  readonly deliveryId: string;
  readonly trigger: ReviewTrigger;
  /** A person asked for this review again: the same SHA may be reviewed twice. */
  readonly rerun: boolean;
  readonly pullRequest: PullRequestSnapshot | null;
  /** Absent for GitHub; "gitlab" for a merge request (installationId is then 0). */
  readonly forge?: "gitlab";
}

/** The App's review request: the same review, delivered to one installation of the App. */
export interface ReviewRequest extends GitHubReview {
  readonly installationId: number;
}

export type SkipReason =
  | "unsupported_event"
  | "no_installation"
  | "pull_request_closed"
  | "own_check_event"
  | "foreign_check_run"
  | "unknown_action"
  | "no_pull_request";

export interface SkippedEvent {
  readonly kind: "skip";
  readonly reason: SkipReason;
  readonly message: string;
}

export interface AcceptedEvent<R extends GitHubReview = ReviewRequest> {
  readonly kind: "review";
  readonly requests: readonly R[];
}

export type MappedEvent<R extends GitHubReview = ReviewRequest> = AcceptedEvent<R> | SkippedEvent;

/** One pull request's key in the queues; a merge request's is prefixed, so a mirror is not the same. */
export function queueKey(request: Pick<ReviewRequest, "owner" | "repo" | "pullNumber" | "forge">): string {
  const key = `${request.owner}/${request.repo}#${request.pullNumber}`;
  return request.forge === undefined ? key : `${request.forge}:${key}`;
}
