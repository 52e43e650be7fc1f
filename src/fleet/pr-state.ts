// The rules of one process, kept in Redis for the whole fleet: per pull request, the job running
// (with a lease its replica renews) and the job waiting; per delivery id, whether it was seen;
// per head SHA, whether it was reviewed; per installation, its live jobs (for fairness). A request
// is decided by domain/pr-rules.ts, the same pure function the in-process queue consults: READ
// takes a snapshot (with the pull request's version), the rules decide, and APPLY writes the
// decision only if the version is unchanged and the delivery still unseen — else it is decided
// again — so two replicas deciding the same pull request at once cannot both think they are first.
//
// Why Lua and not BullMQ's own features: BullMQ's deduplication answers only "deduplicated" for
// one id (it cannot tell the head running from the one waiting or a reviewed one, which the
// webhook's outcome names), never stops a running job (`keepLastIfActive` queues the newer data
// behind it), and `replace` applies to delayed jobs only; `worker.cancelJob` reaches only the jobs
// of the worker it is called on, so a push received by another replica still goes through the
// abort channel. Open-source BullMQ has no per-group concurrency of one either: the per-pull-
// request lease (CLAIM, RENEW, FINISH) stays here. BullMQ's job ids and stalled-job recovery are
// used as they are (fleet-enqueue.ts, redis-queue.ts).

import type { Redis } from "ioredis";
import type { CancelReason } from "../domain/cancel-reason.ts";
import { decideReview, type PrRefusal } from "../domain/pr-rules.ts";
import { accountKey, type ForgeTag, type PullRequestRef, queueKey } from "../domain/review-request.ts";

export type Decision =
  | {
      readonly outcome: "queued";
      readonly abort: string | null;
      readonly drop: string | null;
      readonly rank: number;
    }
  | { readonly outcome: PrRefusal };

export type Claim = "run" | "busy" | "stale";

// KEYS: pr hash, delivery, reviewed. The snapshot the rules decide on.
const READ = `
local h = redis.call('HMGET', KEYS[1], 'version', 'run_job', 'run_sha', 'run_until', 'wait_job', 'wait_sha')
return {h[1] or '0', h[2] or '', h[3] or '', h[4] or '0', h[5] or '', h[6] or '',
  redis.call('EXISTS', KEYS[2]), redis.call('EXISTS', KEYS[3])}
`;

// KEYS: pr hash, delivery, installation zset
// ARGV: version read, jobId, sha, now ms, delivery ttl s, superseded ttl s, keyPrefix, outcome,
//       job to abort, job to drop, pr ttl ms
const APPLY = `
if (redis.call('HGET', KEYS[1], 'version') or '0') ~= ARGV[1] then return {'conflict'} end
if not redis.call('SET', KEYS[2], '1', 'NX', 'EX', tonumber(ARGV[5])) then return {'conflict'} end
if ARGV[8] ~= 'queued' then return {ARGV[8]} end
if ARGV[9] ~= '' then
  redis.call('HSET', KEYS[1], 'run_sha', '')
  redis.call('SET', ARGV[7] .. 'superseded:' .. ARGV[9], ARGV[3], 'EX', tonumber(ARGV[6]))
end
if ARGV[10] ~= '' then
  redis.call('SET', ARGV[7] .. 'superseded:' .. ARGV[10], ARGV[3], 'EX', tonumber(ARGV[6]))
  redis.call('ZREM', KEYS[3], ARGV[10])
end
redis.call('HSET', KEYS[1], 'wait_job', ARGV[2], 'wait_sha', ARGV[3])
redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[11]))
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', tonumber(ARGV[4]) - 86400000)
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[2])
return {'queued', redis.call('ZCARD', KEYS[3])}
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
redis.call('HINCRBY', KEYS[1], 'version', 1)
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
-- Kept (not deleted) so its version only grows: a snapshot read before can never match again.
redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]) * 1000)
return 1
`;

const DAY_S = 86_400;
/** GitHub lets a delivery be redelivered for 3 days; a week covers it. */
const DELIVERY_TTL_S = 7 * DAY_S;
/** A SHA reviewed a month ago and pushed again (a revert of a revert) may be reviewed again. */
const REVIEWED_TTL_S = 30 * DAY_S;
/** A snapshot that no longer matches is read again; this many times at most. */
const DECIDE_ATTEMPTS = 20;

/** A GitLab merge request's keys are its own (domain/review-request.ts's queueKey). */
export type PrTarget = PullRequestRef & ForgeTag;

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
  const pr = (t: PrTarget) => `${p}pr:${queueKey(t)}`;
  const reviewed = (t: PrTarget, sha: string) => `${p}reviewed:${queueKey(t)}@${sha}`;
  const installation = (t: PrTarget) => `${p}installation:${accountKey(t)}`;
  const superseded = (jobId: string) => `${p}superseded:${jobId}`;
  const run = (script: string, keys: string[], args: (string | number)[]) =>
    redis.eval(script, keys.length, ...keys, ...args.map(String));
  return {
    async decide({ target, jobId, deliveryId, headSha, rerun }) {
      const delivery = `${p}delivery:${deliveryId}:${queueKey(target)}`;
      for (let attempt = 0; attempt < DECIDE_ATTEMPTS; attempt++) {
        const read = (await run(READ, [pr(target), delivery, reviewed(target, headSha)], [])) as string[];
        const [version, runJob, runSha, runUntil, waitJob, waitSha, seen, done] = read as [
          string,
          ...string[],
        ];
        const leased = runJob !== "" && Number(runUntil) >= now(); // an expired lease runs nothing
        const decision = decideReview(
          {
            deliverySeen: Number(seen) === 1,
            runningSha: leased && runSha !== "" ? runSha! : null,
            waitingSha: waitJob !== "" ? waitSha! : null,
            reviewed: Number(done) === 1,
          },
          { headSha, rerun },
        );
        if (decision.outcome === "duplicate_delivery") return decision;
        const abort = decision.outcome === "queued" && decision.abortRunning ? runJob! : "";
        const drop = decision.outcome === "queued" && decision.dropWaiting ? waitJob! : "";
        const args = [
          version,
          jobId,
          headSha,
          now(),
          DELIVERY_TTL_S,
          DAY_S,
          p,
          decision.outcome,
          abort,
          drop,
        ];
        const applied = (await run(
          APPLY,
          [pr(target), delivery, installation(target)],
          [...args, REVIEWED_TTL_S * 1000],
        )) as [string, number?];
        if (applied[0] === "conflict") continue;
        if (decision.outcome !== "queued") return decision;
        return { outcome: "queued", abort: abort || null, drop: drop || null, rank: Number(applied[1]) };
      }
      throw new Error(`the pull request's state kept changing (${DECIDE_ATTEMPTS} attempts)`);
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
