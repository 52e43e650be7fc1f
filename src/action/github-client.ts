// The action's GitHub client: `@octokit/rest` with the token it was given, throttled and retried
// as Probot's client is for the App (rate limits waited out, transient 5xx retried), so the same
// host/github adapter and publishing code behave the same in both.

import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Octokit } from "@octokit/rest";
import BottleneckLight from "bottleneck/light.js";
import type { GitHubClient } from "../forges/github/octokit.ts";
import { writeLimiters } from "../forges/github/write-limiters.ts";

const ActionOctokit = Octokit.plugin(throttling, retry);

export interface ActionClientOptions {
  readonly token: string;
  /** GITHUB_API_URL: github.com's API or a GitHub Enterprise Server's. */
  readonly baseUrl: string;
  readonly warn: (message: string) => void;
  /**
   * The least time between two writes (the plugin's own spacing, 1 s and 3 s for a write that
   * notifies people, when not given): a test world against the fake GitHub wants almost none.
   */
  readonly writeSpacingMs?: number;
}

/**
 * Octokit's own request log: a request that failed is logged at error level, 404s among them, and
 * Loupe asks for things that are often absent (`.github/loupe.yml`, a commit the checkout guard
 * looks up): every failure that matters is reported by Loupe itself, in its words. So a 404 is not
 * logged as a problem, and other failures only as the warnings they are until Loupe says more.
 */
function requestLog(warn: (message: string) => void) {
  const ignore = () => {};
  return {
    debug: ignore,
    info: ignore,
    warn,
    error: (message: string) => {
      if (/ - 404 with id /.test(message)) return;
      // A request that got no answer at all, which Octokit logs as a 500 without GitHub's request
      // id: unreachable-github.ts logs each such attempt in its own words.
      if (/ - 500 with id UNKNOWN /.test(message)) return;
      warn(message);
    },
  };
}

export function actionGitHubClient(options: ActionClientOptions): GitHubClient {
  const waited = (kind: string) => (retryAfter: number, request: { method: string; url: string }) => {
    options.warn(`${kind} with "${request.method} ${request.url}", retrying in ${retryAfter} seconds.`);
    return true;
  };
  return new ActionOctokit({
    auth: options.token,
    baseUrl: options.baseUrl,
    userAgent: "loupe-action",
    log: requestLog(options.warn),
    throttle: {
      onRateLimit: waited("Rate limit hit"),
      onSecondaryRateLimit: waited("Secondary rate limit hit"),
      ...(options.writeSpacingMs === undefined ? {} : writeLimiters(BottleneckLight, options.writeSpacingMs)),
    },
  });
}
