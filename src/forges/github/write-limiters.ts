// The two limiters @octokit/plugin-throttling spaces GitHub writes with (every write and GraphQL
// query of a process at least 1 s apart, the writes that notify people 3 s apart: GitHub's advice
// against its secondary rate limits), rebuilt with another spacing. The plugin has no option for
// the spacing but takes limiters of its own kind in their place. The Bottleneck build is the
// caller's: the App's full one (its replicas share limits through Redis), the Action's light one
// (the build the plugin already loads).

import type Bottleneck from "bottleneck";

/** @octokit/plugin-throttling's write spacing, the production default. */
export const DEFAULT_WRITE_SPACING_MS = 1000;
/** The plugin spaces the writes that notify people three times as far apart as the others. */
const NOTIFICATION_FACTOR = 3;
/** The plugin's limiter TTL in Redis (its default, two minutes). */
const LIMITER_TIMEOUT_MS = 120_000;

export type LimiterConnection = Bottleneck.IORedisConnection | Bottleneck.RedisConnection;

export interface WriteLimiters {
  readonly write: Bottleneck.Group;
  readonly notifications: Bottleneck.Group;
}

/** The plugin's `write` and `notifications` limiters, `spacingMs` and three times that apart. */
export function writeLimiters(
  build: typeof Bottleneck,
  spacingMs: number,
  connection?: LimiterConnection,
): WriteLimiters {
  const limiter = (id: string, minTime: number) =>
    new build.Group({
      id,
      maxConcurrent: 1,
      minTime,
      timeout: LIMITER_TIMEOUT_MS,
      ...(connection ? { connection } : {}),
    });
  return {
    write: limiter("octokit-write", spacingMs),
    notifications: limiter("octokit-notifications", spacingMs * NOTIFICATION_FACTOR),
  };
}
