// Whether a review failed because GitHub itself was away: a refused, reset or timed-out connection,
// a DNS failure, or 5xx answers after Octokit's retries — on the API or on git over HTTP (Loupe's
// fetch wraps those in a git_network_failed or git_timeout error). Such a review did not happen
// and is not the repository's fault: it ends `github_unavailable` and its job fails visibly.

import { errorKind } from "../../domain/error-kind.ts";
import { isLoupeError } from "../../domain/errors.ts";
import { ForgeUnavailableError } from "../../jobs/forge-unavailable.ts";

const UNAVAILABLE_KINDS = new Set([
  "connection_refused",
  "connection_reset",
  "dns",
  "timeout",
  "server_error",
]);
const CAUSE_DEPTH = 4;

export function isGitHubUnavailable(error: unknown, depth = CAUSE_DEPTH): boolean {
  if (isLoupeError(error, "git_network_failed") || isLoupeError(error, "git_timeout")) return true;
  if (UNAVAILABLE_KINDS.has(errorKind(error, 0))) return true;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return depth > 0 && cause !== undefined && isGitHubUnavailable(cause, depth - 1);
}

/** What a review job throws once it has reported a review GitHub kept from running. */
export class GitHubUnavailableError extends ForgeUnavailableError {
  constructor(cause: unknown) {
    super("github_unavailable", "GitHub could not be reached; the review did not run", cause);
    this.name = "GitHubUnavailableError";
  }
}
