// The pull request a review is about, as its host knows it now: the App reads it from GitHub (a
// re-run reads the current head), the CLI describes a change between two local revisions. One
// shape for both, so the pipeline never asks where a pull request came from; what only a host's
// pull request has (a number, a page, a title, an author) is null for a local change, never
// invented.

import type { PullRequestAuthor } from "./author-policy.ts";

export interface PullRequest {
  /** The host's number; null for a local change, which has no pull request on any host. */
  readonly number: number | null;
  /** Its page on the host; null for a local change. */
  readonly url: string | null;
  /** null for a local change, which has no title. */
  readonly title: string | null;
  readonly body: string | null;
  readonly headSha: string;
  readonly baseSha: string;
  readonly draft: boolean;
  /** Who opened it on the host; null for a local change, which no one opened anywhere. */
  readonly author: PullRequestAuthor | null;
  readonly open: boolean;
  readonly labels: readonly string[];
}

/** How a host shows the pull request (number, page, title); null for a local change. */
export function hostedPage(
  pullRequest: PullRequest,
): { readonly number: number; readonly url: string; readonly title: string } | null {
  const { number, url, title } = pullRequest;
  return number === null || url === null || title === null ? null : { number, url, title };
}
