// Posts the review exactly once. A hidden marker for (head SHA, check run) is in every body, so
// Loupe can tell whether an earlier attempt landed: it looks before posting and again after a 5xx
// (Octokit's own retry is off for this POST, because a retried POST can double-post). A 422 means
// an inline comment was refused; the review is posted again with every finding in the body.

import type { HostComment, Published } from "../../host/pull-request-host.ts";
import { gitHubComment } from "./github-comment.ts";
import { isLoupeAuthored, listReviewsInSlices } from "./history-records.ts";
import type { GitHubClient, RepoRef } from "./octokit.ts";
import { httpStatus } from "./octokit.ts";
import { type SecondaryRetryOptions, withSecondaryRetry } from "./retry-secondary.ts";

export interface PublishReviewInput extends RepoRef {
  readonly pullNumber: number;
  readonly headSha: string;
  readonly marker: string;
  /** `<app slug>[bot]`: only a review by Loupe itself counts as already posted. */
  readonly botLogin: string;
  readonly body: string;
  readonly comments: readonly HostComment[];
  /** The body with every finding in it, for when GitHub refuses the inline comments. */
  readonly allInBody: () => string;
  readonly retry: SecondaryRetryOptions;
}

export async function findReviewWithMarker(
  octokit: GitHubClient,
  input: RepoRef & { readonly pullNumber: number; readonly marker: string; readonly botLogin: string },
): Promise<number | null> {
  const reviews = await listReviewsInSlices(octokit, input);
  const found = reviews.find(
    (r) => isLoupeAuthored(r, input.botLogin) && typeof r.body === "string" && r.body.includes(input.marker),
  );
  return found ? found.id : null;
}

function isServerFailure(error: unknown): boolean {
  const status = httpStatus(error);
  return status === undefined || status >= 500;
}

export async function publishReview(octokit: GitHubClient, input: PublishReviewInput): Promise<Published> {
  const existing = await findReviewWithMarker(octokit, input);
  if (existing !== null) return { kind: "already_posted", reviewId: existing };

  const post = (body: string, comments: readonly HostComment[]) =>
    withSecondaryRetry(async () => {
      const { data } = await octokit.rest.pulls.createReview({
        owner: input.owner,
        repo: input.repo,
        pull_number: input.pullNumber,
        commit_id: input.headSha,
        event: "COMMENT",
        body,
        comments: comments.map(gitHubComment),
        request: { retries: 0 },
      });
      return data.id;
    }, input.retry);

  const attempt = async (body: string, comments: readonly HostComment[], fallback: boolean) => {
    try {
      return { kind: "posted", reviewId: await post(body, comments), allInBody: fallback } as const;
    } catch (error) {
      if (!isServerFailure(error)) throw error;
      const landed = await findReviewWithMarker(octokit, input);
      if (landed !== null) return { kind: "posted", reviewId: landed, allInBody: fallback } as const;
      return { kind: "posted", reviewId: await post(body, comments), allInBody: fallback } as const;
    }
  };

  try {
    return await attempt(input.body, input.comments, input.comments.length === 0);
  } catch (error) {
    if (httpStatus(error) !== 422 || input.comments.length === 0) throw error;
    return await attempt(input.allInBody(), [], true);
  }
}
