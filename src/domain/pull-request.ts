// The pull request a review is about, as its host knows it now: the App reads it from GitHub (a
// re-run reads the current head), the CLI makes one from two local revisions. One shape for both,
// so the pipeline never asks where a pull request came from.

import type { PullRequestAuthor } from "./author-policy.ts";

export interface PullRequest {
  /** GitHub's number; null for a local change, which has no pull request on any host. */
  readonly number: number | null;
  readonly url: string;
  readonly title: string;
  readonly body: string | null;
  readonly headSha: string;
  readonly baseSha: string;
  readonly draft: boolean;
  readonly author: PullRequestAuthor;
  readonly open: boolean;
  readonly labels: readonly string[];
}
