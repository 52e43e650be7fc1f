// REDIS_URL: unset, Loupe is one process with its own queue; set, every replica shares one queue
// in that Redis (src/fleet/). A bad value is an error line, never a silent fallback to the single
// process (which would split the fleet into strangers).

import * as v from "valibot";
import { integerVar, optionalIntegerVar, textVar } from "./env-fields.ts";

function isRedisUrl(text: string): boolean {
  return URL.canParse(text) && ["redis:", "rediss:"].includes(new URL(text).protocol);
}

export const FleetConfigSchema = v.pipe(
  v.object({
    FLEET_LOCK_SECONDS: integerVar("FLEET_LOCK_SECONDS", 5, 300, 30),
    // Below the 5 s floor, for test worlds that take replicas down and wait for the takeover.
    FLEET_LOCK_MS: optionalIntegerVar("FLEET_LOCK_MS", 1000, 300_000, "FLEET_LOCK_SECONDS"),
    REDIS_URL: textVar(
      // The value is not shown: a Redis URL may carry its password.
      isRedisUrl,
      "REDIS_URL is not a redis:// or rediss:// URL: set the fleet's Redis URL, or unset it for one process",
    ),
  }),
  v.transform((env) => ({
    /** redis:// or rediss:// URL of the fleet's Redis; null for the single process. */
    redisUrl: env.REDIS_URL ?? null,
    /** A replica silent this long is taken for dead and its reviews taken over. */
    lockMs: env.FLEET_LOCK_MS ?? env.FLEET_LOCK_SECONDS * 1000,
  })),
);
