// How far apart the App's writes to GitHub go: the plugin's limiters (write-limiters.ts) spaced by
// GITHUB_WRITE_SPACING_MS and three times that (a GitHub Enterprise Server with raised limits
// wants less; the test worlds want almost none). With REDIS_URL Probot hands the throttle a Redis
// connection so the replicas share their limits; these limiters share it too. The function form
// of `defaults` is needed: Probot merges its own throttle options over an object-form default.

import Bottleneck from "bottleneck";
import { ProbotOctokit } from "probot";
import { type LimiterConnection, type WriteLimiters, writeLimiters } from "./write-limiters.ts";

interface ThrottleOptions {
  readonly connection?: LimiterConnection;
  readonly [option: string]: unknown;
}

/** Probot's Octokit with its writes spaced `spacingMs` apart, one pair of limiters per process. */
export function withWriteSpacing(spacingMs: number): typeof ProbotOctokit {
  let limiters: WriteLimiters | undefined;
  return ProbotOctokit.defaults((options: { throttle?: ThrottleOptions }) => {
    const throttle = options.throttle ?? {};
    limiters ??= writeLimiters(Bottleneck, spacingMs, throttle.connection);
    return { ...options, throttle: { ...throttle, ...limiters } };
  });
}
