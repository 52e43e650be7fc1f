// The Action's patience with a GitHub it cannot reach at all. Octokit's retry plugin treats a
// refused connection like a 5xx: four attempts 1 s, 4 s and 9 s apart for every request, and it
// counted retries in an object all requests share, so later requests waited longer (measured: a
// closed port took 91 s to give up, with silent gaps of 25 s). A runner that cannot connect is
// almost always misconfigured (GITHUB_API_URL, a self-hosted runner's network or proxy) rather
// than seeing a blip, and every minute of a job is billed, so a connection-level failure (refused,
// reset, host not found, unreachable, no answer in time) gets three attempts, 2 s and 4 s apart:
// 6 s of waiting covers a runner's DNS or connection hiccup, and after that the client gives up on
// GitHub for the run, each later request having its one attempt. Every attempt is one log line,
// saying what failed and when Loupe tries again. Answers GitHub chose (a 5xx, rate limits) keep
// the plugin's own schedule.
//
// It listens at the plugin's public `retry.retryRequest`, as observe-requests.ts does in the App.

import { type ErrorKind, errorKind } from "../domain/error-kind.ts";
import type { GitHubClient } from "../forges/github/octokit.ts";

/** The waits before the second and third attempt of a request that could not connect, in seconds. */
export const CONNECTION_RETRY_WAITS_S: readonly number[] = [2, 4];

const CONNECTION_FAILURES: Partial<Record<ErrorKind, string>> = {
  connection_refused: "connection refused",
  connection_reset: "connection reset",
  dns: "host name not found",
  unreachable: "network unreachable",
  timeout: "no answer in time",
};

type RetryRequest = (error: unknown, retries: number, retryAfter: number) => unknown;

interface FailedRequest {
  readonly request?: {
    readonly method?: string;
    readonly url?: string;
    readonly request?: { retryCount?: number };
  };
}

export interface UnreachableGitHub {
  /** What to tell the user once the client gave up on GitHub, in one sentence; null until then. */
  gaveUp(): string | null;
}

/** Bounds the retries of `octokit`'s requests that could not connect to GitHub at `apiUrl`. */
export function giveUpSoonWhenUnreachable(
  octokit: GitHubClient,
  apiUrl: string,
  log: (line: string) => void,
): UnreachableGitHub {
  let gaveUp: string | null = null;
  // The plugin counts a request's retries in its `request` options, which are the client's
  // defaults, shared by every request: each request gets its own copy before the plugin sees it.
  octokit.hook.before("request", (options: { request?: Record<string, unknown> }) => {
    const { retryCount: _stale, ...own } = options.request ?? {};
    options.request = own;
  });
  const plugin = (octokit as unknown as { retry?: { retryRequest?: RetryRequest } }).retry;
  const inner = plugin?.retryRequest;
  if (plugin !== undefined && inner !== undefined) {
    plugin.retryRequest = (error, retries, retryAfter) => {
      const failure = CONNECTION_FAILURES[errorKind(error)];
      if (failure === undefined) return inner.call(plugin, error, retries, retryAfter);
      const failed = error as FailedRequest;
      const what = `${failed.request?.method ?? "GET"} ${failed.request?.url ?? apiUrl}`;
      const attempt = (failed.request?.request?.retryCount ?? 0) + 1;
      const allowed = gaveUp === null ? Math.min(retries, CONNECTION_RETRY_WAITS_S.length) : 0;
      const wait = CONNECTION_RETRY_WAITS_S[attempt - 1] ?? 0;
      const attempts = gaveUp === null ? ` attempt ${attempt} of ${allowed + 1}` : " one attempt";
      if (attempt <= allowed) {
        log(`loupe: GitHub did not answer ${what} (${failure}),${attempts}; trying again in ${wait} s`);
      } else {
        log(`loupe: GitHub did not answer ${what} (${failure}),${attempts}; not trying again`);
        gaveUp ??=
          `Loupe could not reach GitHub's API at ${apiUrl} (${failure}). Check that this runner can reach it ` +
          "(its network, proxy or firewall) and, on GitHub Enterprise Server, that GITHUB_API_URL is the " +
          "server's API URL; then re-run this job.";
      }
      return inner.call(plugin, error, allowed, wait);
    };
  }
  return { gaveUp: () => gaveUp };
}
