// What a GitHub delivery asks Loupe to do, after the pure mapping: review one pull request at one
// head SHA, or nothing (with the reason). The App's queues and jobs only ever see these values; the
// request is the port's review target plus the delivery's own facts (installation, delivery id,
// trigger), so the pipeline and the port never learn a GitHub App's words.

import type { PullRequestAuthor } from "../domain/author-policy.ts";
import type { ReviewTarget } from "../host/pull-request-host.ts";

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

/** The head SHA the event names; for re-runs the host confirms it with pulls.get. */
export interface ReviewRequest extends ReviewTarget {
  /** `X-GitHub-Delivery` (Probot's `context.id`): the same on a redelivery. */
  readonly deliveryId: string;
  readonly trigger: ReviewTrigger;
  readonly installationId: number;
  /** A person asked for this review again: the same SHA may be reviewed twice. */
  readonly rerun: boolean;
  readonly pullRequest: PullRequestSnapshot | null;
  /** Absent for GitHub; "gitlab" for a merge request (installationId is then 0). */
  readonly forge?: "gitlab";
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

export interface AcceptedEvent {
  readonly kind: "review";
  readonly requests: readonly ReviewRequest[];
}

export type MappedEvent = AcceptedEvent | SkippedEvent;

/** One pull request's key in the queues; a merge request's is prefixed, so a mirror is not the same. */
export function queueKey(request: Pick<ReviewRequest, "owner" | "repo" | "pullNumber" | "forge">): string {
  const key = `${request.owner}/${request.repo}#${request.pullNumber}`;
  return request.forge === undefined ? key : `${request.forge}:${key}`;
}
