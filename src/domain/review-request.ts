// What a delivery asks Loupe to do, after the pure mapping: review one pull request (a merge
// request) at one head SHA, or nothing (with the reason). A review is the port's target plus what
// the event said (delivery id, trigger, the pull request) and the forge it came from: GitHub's
// names the App's installation it was delivered to, GitLab's has none (the Action's request is
// GitHub's without one). The pipeline and the port never learn a GitHub App's words.

import type { PullRequestAuthor } from "./author-policy.ts";

/** One pull request, whatever its head: what a reply or a queue names. */
export interface PullRequestRef {
  readonly owner: string;
  readonly repo: string;
  readonly pullNumber: number;
}

/** One pull request at one head: what a review names. */
export interface ReviewTarget extends PullRequestRef {
  /** The head the request names; a host may find the pull request has moved on since. */
  readonly headSha: string;
}

/** The App's installation a GitHub delivery came to (its token, its fairness, its budget). */
export interface GitHubTag {
  readonly forge: "github";
  readonly installationId: number;
}

/** A GitLab instance has no installations: its token is the server's own. */
export interface GitLabTag {
  readonly forge: "gitlab";
}

/** Where a queued request came from, which decides who runs it and how its keys are named. */
export type ForgeTag = GitHubTag | GitLabTag;

/** The tag alone, for a request built from another one (a command's review from its comment). */
export function forgeTagOf(tagged: ForgeTag): ForgeTag {
  return tagged.forge === "github"
    ? { forge: "github", installationId: tagged.installationId }
    : { forge: "gitlab" };
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
 * A review as an event asks for it, on any forge: the target (the head SHA the event names; for
 * re-runs the host confirms it) and what the event said.
 */
export interface AskedReview extends ReviewTarget {
  /** The delivery's id (`X-GitHub-Delivery`, GitLab's event key, a workflow run): the same on a redelivery. */
  readonly deliveryId: string;
  readonly trigger: ReviewTrigger;
  /** A person asked for this review again: the same SHA may be reviewed twice. */
  readonly rerun: boolean;
  readonly pullRequest: PullRequestSnapshot | null;
}

/** A review on GitHub without the App's installation: the Action's whole request. */
export interface GitHubReview extends AskedReview {
  readonly forge: "github";
}

/** The App's review: delivered to one installation of the App. */
export type GitHubAppReview = AskedReview & GitHubTag;

/** A queued review: GitHub's delivered to one installation of the App, or GitLab's. */
export type ReviewRequest = AskedReview & ForgeTag;

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

export interface AcceptedEvent<R extends AskedReview = ReviewRequest> {
  readonly kind: "review";
  readonly requests: readonly R[];
}

export type MappedEvent<R extends AskedReview = ReviewRequest> = AcceptedEvent<R> | SkippedEvent;

/**
 * One pull request's key in the queues and in Redis; a merge request's is prefixed, so a mirror is
 * not the same. GitHub's has no prefix: the keys of jobs queued before requests carried their forge.
 */
export function queueKey(request: PullRequestRef & { readonly forge: ForgeTag["forge"] }): string {
  const key = `${request.owner}/${request.repo}#${request.pullNumber}`;
  return request.forge === "gitlab" ? `gitlab:${key}` : key;
}

/** Whose jobs share a turn in the fleet's fairness: one App installation, or a GitLab instance. */
export function accountKey(tag: ForgeTag): string {
  return tag.forge === "gitlab" ? "gitlab" : String(tag.installationId);
}
