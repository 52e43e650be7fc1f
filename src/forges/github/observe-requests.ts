// What an operator sees of GitHub's health from one installation's client. Octokit's retry plugin
// (Probot's: up to 3 retries, 1 s, 4 s and 9 s apart) retries quietly, so a review blocked on an
// unreachable GitHub said nothing for minutes: each failed attempt it will retry is now one info
// line with the attempt and the attempts allowed. Every failure and success also reaches GitHub's
// dependency state (down, still down with counts, up) and its error count.
//
// The plugin asks `octokit.retry.retryRequest(error, retries, retryAfter)` — its public method —
// about every failed attempt it may retry, from inside its own retry loop, where no request hook
// can see them (hooks added after the plugin wrap the whole loop); the wrapper below listens there.
//
// The plugin counts a request's retries in `options.request.retryCount`, and that object is the
// client's default `request` options, shared by every request of the client (measured: a request
// after one that had been retried started at count 4, waited 25 s before its first retry and got
// fewer of them). Each request gets its own copy here, before the plugin sees it.

import { errorKind } from "../../domain/error-kind.ts";
import type { Logger } from "../../log/job-logger.ts";
import type { GitHubClient } from "./octokit.ts";

export interface GitHubHealth {
  failed(error: unknown): void;
  succeeded(): void;
}

type RetryRequest = (error: unknown, retries: number, retryAfter: number) => unknown;

interface FailedRequest {
  readonly status?: unknown;
  readonly request?: {
    readonly method?: string;
    readonly url?: string;
    readonly request?: { retryCount?: number };
  };
}

const watched = new WeakSet<object>();

export function observeGitHubRequests(
  octokit: GitHubClient,
  health: GitHubHealth,
  log: Pick<Logger, "info">,
): void {
  if (watched.has(octokit)) return;
  watched.add(octokit);
  octokit.hook.before("request", (options: { request?: Record<string, unknown> }) => {
    const { retryCount: _stale, ...own } = options.request ?? {};
    options.request = own;
  });
  octokit.hook.after("request", () => health.succeeded());
  octokit.hook.error("request", (error: unknown) => {
    // An answer GitHub chose (not found, forbidden, invalid) says it is up; the rest was counted
    // attempt by attempt below, or is not GitHub's fault (an abort).
    if (errorKind(error) === "client_error") health.succeeded();
    throw error;
  });
  const plugin = (octokit as unknown as { retry?: { retryRequest?: RetryRequest } }).retry;
  const original = plugin?.retryRequest;
  if (plugin === undefined || original === undefined) return;
  plugin.retryRequest = (error, retries, retryAfter) => {
    health.failed(error);
    const failed = error as FailedRequest;
    const attempt = (failed.request?.request?.retryCount ?? 0) + 1;
    if (attempt <= retries) {
      const { method, url } = failed.request ?? {};
      const kind = errorKind(error);
      log.info(
        { event: "github_retry", method, url, status: failed.status, kind, attempt, attempts: retries + 1 },
        `GitHub request failed (${kind}), attempt ${attempt} of ${retries + 1}; retrying in ${retryAfter} s`,
      );
    }
    return original.call(plugin, error, retries, retryAfter);
  };
}
