// REDIS_URL: unset, Loupe is one process with its own queue; set, every replica shares one queue
// in that Redis (src/fleet/). A bad value is a one-line configuration error, never a silent
// fallback to the single process (which would split the fleet into strangers).

import { LoupeError } from "../domain/errors.ts";

export interface FleetConfig {
  /** redis:// or rediss:// URL of the fleet's Redis; null for the single process. */
  readonly redisUrl: string | null;
  /** FLEET_LOCK_SECONDS: a replica silent this long is taken for dead and its reviews taken over. */
  readonly lockMs: number;
}

export function readFleetConfig(env: Readonly<Record<string, string | undefined>>): FleetConfig {
  const lockRaw = (env.FLEET_LOCK_SECONDS ?? "").trim();
  const lockSeconds = lockRaw === "" ? 30 : Number(lockRaw);
  if (!/^\d+$/.test(lockRaw || "30") || lockSeconds < 5 || lockSeconds > 300) {
    throw new LoupeError("configuration_invalid", "FLEET_LOCK_SECONDS must be an integer from 5 to 300");
  }
  const lockMs = lockSeconds * 1000;
  const raw = (env.REDIS_URL ?? "").trim();
  if (raw === "") return { redisUrl: null, lockMs };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new LoupeError("configuration_invalid", "REDIS_URL must be a redis:// or rediss:// URL");
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
    throw new LoupeError("configuration_invalid", "REDIS_URL must be a redis:// or rediss:// URL");
  }
  return { redisUrl: raw, lockMs };
}
