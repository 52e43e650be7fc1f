// Octokit's retries inside the review's time. The retry plugin waits 1 s, 4 s and 9 s between
// four attempts of each request, and a request that needs a token nests the token's four attempts
// inside its own: with GitHub unreachable and a 20 s review, the review ended after 70 s (series
// after series of token retries). A client given a deadline here retries only while the wait
// still ends before it; after it, each request gets its one attempt, and the review ends
// `github_unavailable` within its time.
//
// It listens where observe-requests.ts does, at the plugin's public `retry.retryRequest`, and is
// installed after it, so the "retrying" line is only logged for a retry that will happen.

import type { GitHubClient } from "./octokit.ts";

type RetryRequest = (error: unknown, retries: number, retryAfter: number) => unknown;

const deadlines = new WeakMap<object, { at: number; now: () => number }>();

/** Retries of this client's requests end by `deadline` (ms since the epoch, on `now`'s clock). */
export function retryWithin(octokit: GitHubClient, deadline: number, now: () => number = Date.now): void {
  const known = deadlines.has(octokit);
  deadlines.set(octokit, { at: deadline, now });
  if (known) return;
  const plugin = (octokit as unknown as { retry?: { retryRequest?: RetryRequest } }).retry;
  const inner = plugin?.retryRequest;
  if (plugin === undefined || inner === undefined) return;
  plugin.retryRequest = (error, retries, retryAfter) => {
    const bound = deadlines.get(octokit);
    const fits = bound === undefined || bound.now() + retryAfter * 1000 <= bound.at;
    return inner.call(plugin, error, fits ? retries : 0, retryAfter);
  };
}
