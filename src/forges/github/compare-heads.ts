// GitHub's comparison of the last reviewed head with the new one (compare last...new). When the
// last head is an ancestor, the status is `ahead` and `files[]` is exactly what the new commits
// changed. A 404 (the old head is gone after a force-push) is an answer, not a failure.

import type { HeadComparison } from "../../conversation/review-scope.ts";
import type { HeadsCompared } from "../../host/pull-request-host.ts";
import { type GitHubFile, toChangedFile } from "./compare.ts";
import { parseJsonInSlices, UNPARSED_BODY } from "./json-in-slices.ts";
import { type GitHubClient, httpStatus, type RepoRef } from "./octokit.ts";

const STATUSES = new Set(["ahead", "behind", "diverged", "identical"]);

export async function compareHeads(
  octokit: GitHubClient,
  input: RepoRef & { readonly fromSha: string; readonly toSha: string },
): Promise<HeadsCompared | null> {
  try {
    const response = await octokit.rest.repos.compareCommitsWithBasehead({
      owner: input.owner,
      repo: input.repo,
      basehead: `${input.fromSha}...${input.toSha}`,
      request: UNPARSED_BODY,
    });
    // Megabytes with long names, like the pull request's own comparison (see compare.ts).
    const data = (await parseJsonInSlices(response.data, "GitHub's comparison of the heads")) as {
      readonly status: string;
      readonly ahead_by: number;
      readonly files?: readonly GitHubFile[];
    };
    if (!STATUSES.has(data.status)) return null;
    return {
      status: data.status as HeadComparison["status"],
      aheadBy: data.ahead_by,
      files: (data.files ?? []).map(toChangedFile),
    };
  } catch (error) {
    if (httpStatus(error) === 404) return null;
    throw error;
  }
}
