// The action's GitHub client: `@octokit/rest` with the token it was given, throttled and retried
// as Probot's client is for the App (rate limits waited out, transient 5xx retried), so the same
// host/github adapter and publishing code behave the same in both.

import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Octokit } from "@octokit/rest";
import type { GitHubClient } from "../forges/github/octokit.ts";

const ActionOctokit = Octokit.plugin(throttling, retry);

export interface ActionClientOptions {
  readonly token: string;
  /** GITHUB_API_URL: github.com's API or a GitHub Enterprise Server's. */
  readonly baseUrl: string;
  readonly warn: (message: string) => void;
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
    throttle: {
      onRateLimit: waited("Rate limit hit"),
      onSecondaryRateLimit: waited("Secondary rate limit hit"),
    },
  });
}
