// Every page of a GitHub list, each page's body parsed a piece at a time (json-in-slices.ts), the
// pages followed as octokit.paginate follows them: the Link header's `next`. A page of review
// comments holds bodies of up to 65,536 characters each, so a hundred of them are megabytes that
// octokit.paginate would parse in one turn of the event loop.

import { LoupeError } from "../../domain/errors.ts";
import { parseJsonInSlices, UNPARSED_BODY } from "./json-in-slices.ts";
import type { GitHubClient, RepoRef } from "./octokit.ts";

export interface UnparsedPage {
  readonly data: unknown;
  readonly headers: { readonly link?: string };
}

/**
 * The items of every page. `firstPage` makes the first request with the `request` option it is
 * given (the body left unread); `what` names the list in errors.
 */
export async function listInSlices<T>(
  octokit: GitHubClient,
  firstPage: (request: typeof UNPARSED_BODY) => Promise<UnparsedPage>,
  what: string,
): Promise<T[]> {
  const items: T[] = [];
  let response = await firstPage(UNPARSED_BODY);
  for (;;) {
    const page = await parseJsonInSlices(response.data, what);
    if (!Array.isArray(page)) throw new LoupeError("github_request_failed", `${what} is not a list`);
    for (const item of page as T[]) items.push(item);
    const next = nextPage(response.headers.link);
    if (next === undefined) return items;
    response = await octokit.request(`GET ${next}`, { request: UNPARSED_BODY });
  }
}

function nextPage(link: string | undefined): string | undefined {
  return /<([^<>]+)>;\s*rel="next"/.exec(link ?? "")?.[1];
}

/** One of a pull request's lists (pulls.listFiles, listReviews, listReviewComments). */
export type PullRequestList = (params: {
  owner: string;
  repo: string;
  pull_number: number;
  per_page: number;
  request: typeof UNPARSED_BODY;
}) => Promise<UnparsedPage>;

/** Every item of one of the pull request's lists, 100 a page. */
export function listPullRequestInSlices<T>(
  octokit: GitHubClient,
  pr: RepoRef & { readonly pullNumber: number },
  list: PullRequestList,
  what: string,
): Promise<T[]> {
  return listInSlices<T>(
    octokit,
    (request) => list({ owner: pr.owner, repo: pr.repo, pull_number: pr.pullNumber, per_page: 100, request }),
    what,
  );
}
