// How far apart the App's writes to GitHub go. @octokit/plugin-throttling queues every write (and
// every GraphQL query) of a process through one limiter at least 1 s apart, and the writes that
// notify people (a review, a comment) through a second one 3 s apart: GitHub's advice against its
// secondary rate limits. The plugin has no option for the spacing, so its two limiters are
// replaced here by ones of the same kind, spaced by GITHUB_WRITE_SPACING_MS and three times that
// (a GitHub Enterprise Server with raised limits wants less; the test worlds want almost none).
// With REDIS_URL Probot hands the throttle a Redis connection so the replicas share their limits;
// these limiters share it too. The function form of `defaults` is needed: Probot merges its own
// throttle options over an object-form default.

import Bottleneck from "bottleneck";
import { ProbotOctokit } from "probot";

/** @octokit/plugin-throttling's write spacing, the production default. */
export const DEFAULT_WRITE_SPACING_MS = 1000;
/** The plugin spaces the writes that notify people three times as far apart as the others. */
const NOTIFICATION_FACTOR = 3;
/** The plugin's limiter TTL in Redis (its default, two minutes). */
const LIMITER_TIMEOUT_MS = 120_000;

type Connection = Bottleneck.IORedisConnection | Bottleneck.RedisConnection;

interface ThrottleOptions {
  readonly connection?: Connection;
  readonly [option: string]: unknown;
}

function limiter(id: string, minTime: number, connection: Connection | undefined): Bottleneck.Group {
  return new Bottleneck.Group({
    id,
    maxConcurrent: 1,
    minTime,
    timeout: LIMITER_TIMEOUT_MS,
    ...(connection ? { connection } : {}),
  });
}

/** Probot's Octokit with its writes spaced `spacingMs` apart, one pair of limiters per process. */
export function withWriteSpacing(spacingMs: number): typeof ProbotOctokit {
  let limiters: { write: Bottleneck.Group; notifications: Bottleneck.Group } | undefined;
  return ProbotOctokit.defaults((options: { throttle?: ThrottleOptions }) => {
    const throttle = options.throttle ?? {};
    limiters ??= {
      write: limiter("octokit-write", spacingMs, throttle.connection),
      notifications: limiter("octokit-notifications", spacingMs * NOTIFICATION_FACTOR, throttle.connection),
    };
    return { ...options, throttle: { ...throttle, ...limiters } };
  });
}
