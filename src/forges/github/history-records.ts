// What was said on a pull request, as GitHub lists it: its review comments and its reviews, read a
// piece at a time and mapped into the port's raw records. Which of them are Loupe's, and what they
// mean (fingerprints, the last reviewed state, the ledger), the pipeline decides (loupe-history.ts).

import type { HostText } from "../../conversation/review-state.ts";
import type { HostRecords } from "../../host/pull-request-host.ts";
import { listPullRequestInSlices } from "./list-in-slices.ts";
import type { GitHubClient, RepoRef } from "./octokit.ts";

export interface Authored {
  readonly id: number;
  readonly body?: string | null;
  readonly user?: { readonly login?: string; readonly type?: string } | null;
  readonly submitted_at?: string | null;
}

export function isLoupeAuthored(item: Omit<Authored, "id">, botLogin: string): boolean {
  return item.user?.type === "Bot" && item.user.login === botLogin;
}

export async function readHistoryRecords(
  octokit: GitHubClient,
  input: RepoRef & { readonly pullNumber: number; readonly botLogin: string },
): Promise<HostRecords> {
  const [comments, reviews] = await Promise.all([
    listPullRequestInSlices<Authored>(
      octokit,
      input,
      octokit.rest.pulls.listReviewComments,
      "GitHub's list of the pull request's review comments",
    ),
    listReviewsInSlices(octokit, input),
  ]);
  return { self: input.botLogin, comments: comments.map(hostText), reviews: reviews.map(hostText) };
}

function hostText(item: Authored): HostText {
  const login = item.user?.login;
  return {
    id: item.id,
    body: typeof item.body === "string" ? item.body : null,
    author: typeof login === "string" ? { login, isBot: item.user?.type === "Bot" } : null,
    submittedAt: item.submitted_at ?? null,
  };
}

/** Every review on the pull request, each page parsed a piece at a time. */
export function listReviewsInSlices(
  octokit: GitHubClient,
  pr: RepoRef & { readonly pullNumber: number },
): Promise<Authored[]> {
  return listPullRequestInSlices<Authored>(
    octokit,
    pr,
    octokit.rest.pulls.listReviews,
    "GitHub's list of the pull request's reviews",
  );
}
