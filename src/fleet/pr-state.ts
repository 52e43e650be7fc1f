// The rules of one process, kept in Redis for the whole fleet: per pull request, the job running
// (with a lease its replica renews) and the job waiting; per delivery id, whether it was seen;
// per head SHA, whether it was reviewed; per installation, its live jobs (for fairness). Each
// decision is one Lua script, so two replicas receiving webhooks for the same pull request at the
// same moment cannot both think they are first. The same decisions as the in-process queue.

import type { Redis } from "ioredis";
import type { CancelReason } from "../domain/cancel-reason.ts";

export type Decision =
  | {
      readonly outcome: "queued";
      readonly abort: string | null;
      readonly drop: string | null;
      readonly rank: number;
    }
  | { readonly outcome: "duplicate_delivery" | "already_running" | "already_pending" | "already_reviewed" };

export type Claim = "run" | "busy" | "stale";

// KEYS: pr hash, delivery, reviewed, installation zset, superseded prefix (string concat below)
// ARGV: jobId, sha, rerun (0/1), now ms, delivery ttl s, superseded ttl s, keyPrefix
const DECIDE = `
if redis.call('EXISTS', KEYS[2]) == 1 then return {'duplicate_delivery'} end
local now = tonumber(ARGV[4])
local runJob = redis.call('HGET', KEYS[1], 'run_job')
local runSha = redis.call('HGET', KEYS[1], 'run_sha')
local runUntil = tonumber(redis.call('HGET', KEYS[1], 'run_until') or '0')
if runJob and runUntil < now then runJob = false; runSha = false end
local waitJob = redis.call('HGET', KEYS[1], 'wait_job')
local waitSha = redis.call('HGET', KEYS[1], 'wait_sha')
if runJob and runSha == ARGV[2] then return {'already_running'} end
if waitJob and waitSha == ARGV[2] then return {'already_pending'} end
if ARGV[3] == '0' and redis.call('EXISTS', KEYS[3]) == 1 then return {'already_reviewed'} end
if ARGV[3] == '1' and waitJob then return {'already_pending'} end
redis.call('SET', KEYS[2], '1', 'EX', tonumber(ARGV[5]))
local abort = ''
if ARGV[3] == '0' and runJob and runSha ~= '' then
  abort = runJob
  redis.call('HSET', KEYS[1], 'run_sha', '')
  redis.call('SET', ARGV[7] .. 'superseded:' .. runJob, ARGV[2], 'EX', tonumber(ARGV[6]))
end
local drop = ''
if waitJob then
  drop = waitJob
  redis.call('SET', ARGV[7] .. 'superseded:' .. waitJob, ARGV[2], 'EX', tonumber(ARGV[6]))
  redis.call('ZREM', KEYS[4], waitJob)
end
redis.call('HSET', KEYS[1], 'wait_job', ARGV[1], 'wait_sha', ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now - 86400000)
redis.call('ZADD', KEYS[4], now, ARGV[1])
return {'queued', abort, drop, redis.call('ZCARD', KEYS[4])}
`;

// KEYS: pr hash. ARGV: jobId, sha, now, lease ms
const CLAIM = `
local now = tonumber(ARGV[3])
local runJob = redis.call('HGET', KEYS[1], 'run_job')
local runUntil = tonumber(redis.call('HGET', KEYS[1], 'run_until') or '0')
if runJob == ARGV[1] then
  redis.call('HSET', KEYS[1], 'run_until', now + tonumber(ARGV[4]))
  return 'run'
end
if redis.call('HGET', KEYS[1], 'wait_job') ~= ARGV[1] then return 'stale' end
if runJob and runUntil >= now then return 'busy' end
redis.call('HSET', KEYS[1], 'run_job', ARGV[1], 'run_sha', ARGV[2], 'run_until', now + tonumber(ARGV[4]))
redis.call('HDEL', KEYS[1], 'wait_job', 'wait_sha')
return 'run'
`;

// KEYS: pr hash. ARGV: jobId, now, lease ms. Returns 1 while this job still holds the pull request.
const RENEW = `
if redis.call('HGET', KEYS[1], 'run_job') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'run_until', tonumber(ARGV[2]) + tonumber(ARGV[3]))
return 1
`;

// KEYS: pr hash, reviewed, installation zset. ARGV: jobId, remember (0/1), reviewed ttl s
const FINISH = `
redis.call('ZREM', KEYS[3], ARGV[1])
if redis.call('HGET', KEYS[1], 'run_job') == ARGV[1] then
  redis.call('HDEL', KEYS[1], 'run_job', 'run_sha', 'run_until')
end
if ARGV[2] == '1' then redis.call('SET', KEYS[2], '1', 'EX', tonumber(ARGV[3])) end
if redis.call('HLEN', KEYS[1]) == 0 then redis.call('DEL', KEYS[1]) end
return 1
`;

const DAY_S = 86_400;
/** GitHub lets a delivery be redelivered for 3 days; a week covers it. */
const DELIVERY_TTL_S = 7 * DAY_S;
/** A SHA reviewed a month ago and pushed again (a revert of a revert) may be reviewed again. */
const REVIEWED_TTL_S = 30 * DAY_S;

export interface PrTarget {
  readonly owner: string;
  readonly repo: string;
  readonly pullNumber: number;
  readonly installationId: number;
}

export interface PrState {
  decide(input: {
    target: PrTarget;
    jobId: string;
    deliveryId: string;
    headSha: string;
    rerun: boolean;
  }): Promise<Decision>;
  claim(target: PrTarget, jobId: string, headSha: string): Promise<Claim>;
  /** false once another job holds the pull request. */
  renew(target: PrTarget, jobId: string): Promise<boolean>;
  /** Why a job must stop: a newer push's SHA, or null. */
  supersededBy(jobId: string): Promise<CancelReason | null>;
  /** Frees the pull request; `remember` marks the SHA as reviewed. */
  finish(target: PrTarget, jobId: string, headSha: string, remember: boolean): Promise<void>;
}

export function createPrState(
  redis: Redis,
  options: { prefix: string; leaseMs: number; now?: () => number },
): PrState {
  const now = options.now ?? Date.now;
  const p = options.prefix;
  const pr = (t: PrTarget) => `${p}pr:${t.owner}/${t.repo}#${t.pullNumber}`;
  const reviewed = (t: PrTarget, sha: string) => `${p}reviewed:${t.owner}/${t.repo}#${t.pullNumber}@${sha}`;
  const installation = (t: PrTarget) => `${p}installation:${t.installationId}`;
  const superseded = (jobId: string) => `${p}superseded:${jobId}`;
  const run = (script: string, keys: string[], args: (string | number)[]) =>
    redis.eval(script, keys.length, ...keys, ...args.map(String));
  return {
    async decide({ target, jobId, deliveryId, headSha, rerun }) {
      const delivery = `${p}delivery:${deliveryId}:${target.owner}/${target.repo}#${target.pullNumber}`;
      const result = (await run(
        DECIDE,
        [pr(target), delivery, reviewed(target, headSha), installation(target)],
        [jobId, headSha, rerun ? 1 : 0, now(), DELIVERY_TTL_S, DAY_S, p],
      )) as [string, string?, string?, number?];
      const [outcome, abort, drop, rank] = result;
      if (outcome === "queued") {
        return { outcome, abort: abort || null, drop: drop || null, rank: Number(rank) };
      }
      return { outcome: outcome as Exclude<Decision["outcome"], "queued"> };
    },
    async claim(target, jobId, headSha) {
      return (await run(CLAIM, [pr(target)], [jobId, headSha, now(), options.leaseMs])) as Claim;
    },
    async renew(target, jobId) {
      return (await run(RENEW, [pr(target)], [jobId, now(), options.leaseMs])) === 1;
    },
    async supersededBy(jobId) {
      const sha = await redis.get(superseded(jobId));
      return sha === null ? null : { kind: "superseded", headSha: sha };
    },
    async finish(target, jobId, headSha, remember) {
      await run(
        FINISH,
        [pr(target), reviewed(target, headSha), installation(target)],
        [jobId, remember ? 1 : 0, REVIEWED_TTL_S],
      );
    },
  };
}
