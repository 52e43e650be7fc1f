// Who makes a fleet job's `queued` check run, kept in Redis. The webhook is answered as soon as the
// job is durable and decided; the queued run is made afterwards (GitHub paces an installation's
// writes one a second, so a burst of webhooks cannot wait for them). That leaves a race between
// the replica announcing the job and the replica starting it, settled here per job, in one key:
//
//   (none) ──announcer claims──▶ announcing ──run made──▶ run:<id> | none
//      └────worker starts────▶ started   (the announcer then makes nothing)
//
// A starting worker that finds `announcing` waits: the announcer renews its claim while its POST is
// in flight, so a live one is waited for and a dead one's claim expires within the lock time. A
// run made by a replica killed before it recorded it is found by the worker on GitHub (a queued
// Loupe run on the same head, see check-runs/find-queued.ts) and adopted, never made twice.
// A recorded run is adopted by every attempt of the job; a job that leaves without running (a
// newer push replaced it) has its run taken, once, to be cancelled.

import type { Redis } from "ioredis";

/** What a starting job does about its check run. */
export type RunStart =
  | { readonly kind: "adopt"; readonly id: number }
  /** No run was recorded: make one (after looking for a queued one a dead announcer made). */
  | { readonly kind: "create" }
  /** An announcer's POST is in flight: ask again shortly. */
  | { readonly kind: "wait" };

// KEYS: the job's key. ARGV: ttl ms. Claims the announcement unless the job started.
const CLAIM = `return redis.call('SET', KEYS[1], 'announcing', 'NX', 'PX', ARGV[1]) and 1 or 0`;

// KEYS: the job's key. ARGV: ttl ms. Keeps a live announcer's claim.
const RENEW = `
if redis.call('GET', KEYS[1]) ~= 'announcing' then return 0 end
return redis.call('PEXPIRE', KEYS[1], ARGV[1])
`;

// KEYS: the job's key. ARGV: 'run:<id>' or 'none', ttl ms.
const RECORD = `
if redis.call('GET', KEYS[1]) ~= 'announcing' then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

// KEYS: the job's key. ARGV: ttl ms. A recorded run is kept, so every attempt of the job (a
// takeover after a crash) adopts the same one; otherwise the job starts and no run will be made.
const START = `
local v = redis.call('GET', KEYS[1])
if v == 'announcing' then return 'wait' end
if v and string.sub(v, 1, 4) == 'run:' then return v end
redis.call('SET', KEYS[1], 'started', 'PX', ARGV[1])
return 'create'
`;

// KEYS: the job's key. ARGV: ttl ms. The recorded run of a job that leaves without running.
const TAKE = `
local v = redis.call('GET', KEYS[1])
if not v or string.sub(v, 1, 4) ~= 'run:' then return false end
redis.call('SET', KEYS[1], 'taken', 'PX', ARGV[1])
return v
`;

/** How long a settled record is kept: a job waits for a worker at most about this long. */
const RECORD_TTL_MS = 24 * 3_600_000;

export interface Announcements {
  /** The announcer's claim; false when the job already started (it makes its own run). */
  claim(jobId: string): Promise<boolean>;
  renew(jobId: string): Promise<void>;
  /** The run the announcer made (null: GitHub refused); false when its claim had expired. */
  record(jobId: string, runId: number | null): Promise<boolean>;
  start(jobId: string): Promise<RunStart>;
  /** The recorded run, for the one caller that cancels it; null when none (or taken). */
  take(jobId: string): Promise<number | null>;
}

export function createAnnouncements(
  redis: Redis,
  options: { prefix: string; claimMs: number },
): Announcements {
  const key = (jobId: string) => `${options.prefix}announce:${jobId}`;
  const run = (script: string, jobId: string, ...args: (string | number)[]) =>
    redis.eval(script, 1, key(jobId), ...args.map(String));
  const runId = (value: unknown) => Number(String(value).slice("run:".length));
  return {
    claim: async (jobId) => (await run(CLAIM, jobId, options.claimMs)) === 1,
    renew: async (jobId) => {
      await run(RENEW, jobId, options.claimMs);
    },
    record: async (jobId, id) =>
      (await run(RECORD, jobId, id === null ? "none" : `run:${id}`, RECORD_TTL_MS)) === 1,
    start: async (jobId) => {
      const answer = await run(START, jobId, RECORD_TTL_MS);
      if (answer === "wait") return { kind: "wait" };
      if (answer === "create") return { kind: "create" };
      return { kind: "adopt", id: runId(answer) };
    },
    take: async (jobId) => {
      const answer = await run(TAKE, jobId, RECORD_TTL_MS);
      return answer === null ? null : runId(answer);
    },
  };
}
