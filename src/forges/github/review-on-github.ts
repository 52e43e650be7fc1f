// The one runner of a review on GitHub, for the App's job and the Action alike: the GitHub host,
// the pipeline with what the request implies (asked, a full review), an early failure logged and
// turned into an outcome, and the caller's own ending (its check run, its report) done while the
// host still holds the token — so the token is forgotten only after the last text that could
// quote it was published. Each caller adds only its own concerns.

import type { GitHubReview } from "../../domain/review-request.ts";
import type { PullRequestHost } from "../../host/pull-request-host.ts";
import { errorDetail } from "../../log/error-detail.ts";
import type { ReviewOutcome } from "../../pipeline/review-outcome.ts";
import type { ReviewPorts } from "../../pipeline/review-ports.ts";
import { type ReviewRun, reviewPullRequest } from "../../pipeline/review-pull-request.ts";
import type { WorkspaceHandle } from "../../workspace/types.ts";
import { type GitHubHostOptions, gitHubHost } from "./github-host.ts";

export interface ReviewOnGitHub<W extends WorkspaceHandle> {
  readonly host: Omit<GitHubHostOptions<W>, "request" | "fetchWorkspace">;
  readonly request: Pick<
    GitHubReview,
    "owner" | "repo" | "pullNumber" | "headSha" | "rerun" | "pullRequest" | "trigger"
  >;
  readonly ports: ReviewPorts<W>;
  readonly run: Omit<ReviewRun, "asked" | "askedFull">;
  /** The host as the pipeline sees it (the Action watches its publisher for a refusal). */
  readonly watch?: (host: PullRequestHost<W>) => PullRequestHost<W>;
  /** The outcome of a review that threw; the default: failed with the error. */
  readonly failed?: (error: unknown) => Promise<ReviewOutcome>;
}

export async function reviewOnGitHub<W extends WorkspaceHandle, T>(
  options: ReviewOnGitHub<W>,
  ending: (outcome: ReviewOutcome) => Promise<T>,
): Promise<T> {
  const { request, ports, run } = options;
  await using host = gitHubHost({ ...options.host, request, fetchWorkspace: ports.fetchWorkspace });
  const outcome = await reviewPullRequest(options.watch?.(host) ?? host, ports, {
    ...run,
    asked: request.rerun,
    askedFull: request.trigger === "command.full_review",
  }).catch(async (error: unknown): Promise<ReviewOutcome> => {
    run.log.warn({ error: errorDetail(error) }, "review ended early");
    return (await options.failed?.(error)) ?? { kind: "failed", error };
  });
  return await ending(outcome);
}
