// The provider gate's backend for a fleet: every replica's leases, waiting line, minute of tokens
// and back-off in the fleet's Redis, each try one Lua script (Redis runs a script alone, so two
// replicas cannot both take the last place). The rule is the one process's
// (jobs/memory-provider-gate.ts), written again in Lua only because it must run inside Redis.
// Times are Redis's own clock (TIME), the one clock every replica shares: a lease is a sorted-set
// member scored by when it expires, so a replica killed while it held one frees it when it is not
// renewed — a bare counter would stay taken for ever.

import { Redis } from "ioredis";
import { type GateLimits, MINUTE_MS, WAITER_GONE_MS } from "../jobs/memory-provider-gate.ts";
import type { GateBackend, GateTry, ProviderWaitCause } from "../llm/provider-gate.ts";

// KEYS: leases, waiters (score: arrival), seen (score: last try), minute (score: when sent),
// minute tokens (hash: lease → tokens), back-off (its time to live is the back-off).
const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

const FORGET = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local gone = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now - ${WAITER_GONE_MS})
for _, ticket in ipairs(gone) do
  redis.call('ZREM', KEYS[2], ticket)
  redis.call('ZREM', KEYS[3], ticket)
end
local old = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', now - ${MINUTE_MS})
for _, id in ipairs(old) do
  redis.call('ZREM', KEYS[4], id)
  redis.call('HDEL', KEYS[5], id)
end
`;

// ARGV: ticket, tokens, max in flight (-1: none), tokens per minute (-1: none), lease ms.
const TRY = `${NOW}${FORGET}
local ticket = ARGV[1]
local tokens = tonumber(ARGV[2])
local max = tonumber(ARGV[3])
local perMinute = tonumber(ARGV[4])
local leaseMs = tonumber(ARGV[5])
redis.call('ZADD', KEYS[2], 'NX', now, ticket)
redis.call('ZADD', KEYS[3], now, ticket)
local backOff = redis.call('PTTL', KEYS[6])
if backOff > 0 then return {'wait', 'back_off', tostring(backOff)} end
local rank = redis.call('ZRANK', KEYS[2], ticket)
if max >= 0 and rank >= max - redis.call('ZCARD', KEYS[1]) then
  return {'wait', 'in_flight', tostring(leaseMs)}
end
local used = 0
for _, n in ipairs(redis.call('HVALS', KEYS[5])) do used = used + tonumber(n) end
if perMinute >= 0 and used > 0 and used + tokens > perMinute then
  local oldest = redis.call('ZRANGE', KEYS[4], 0, 0, 'WITHSCORES')
  return {'wait', 'tokens_per_minute', tostring(tonumber(oldest[2]) + ${MINUTE_MS} - now)}
end
redis.call('ZREM', KEYS[2], ticket)
redis.call('ZREM', KEYS[3], ticket)
redis.call('ZADD', KEYS[1], now + leaseMs, ticket)
redis.call('ZADD', KEYS[4], now, ticket)
redis.call('HSET', KEYS[5], ticket, tokens)
for i = 1, 5 do redis.call('PEXPIRE', KEYS[i], ${MINUTE_MS} + leaseMs) end
return {'granted', ticket, tostring(used + tokens)}
`;

const RENEW = `${NOW}
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
end
return 1
`;

const RELEASE = `
redis.call('ZREM', KEYS[1], ARGV[1])
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then redis.call('HSET', KEYS[2], ARGV[1], ARGV[2]) end
return 1
`;

// A back-off only ever lengthens: a shorter Retry-After never cuts one already under way.
const BACK_OFF = `
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
end
return 1
`;

export interface RedisGateBackend extends GateBackend {
  close(): void;
}

export function createRedisGateBackend(
  limits: GateLimits,
  options: { readonly redisUrl: string; readonly leaseMs: number; readonly prefix?: string },
): RedisGateBackend {
  const redis = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
  const prefix = options.prefix ?? "loupe:provider:";
  const key = (name: string) => `${prefix}${name}`;
  const keys = ["leases", "waiters", "seen", "minute", "minute-tokens", "back-off"].map(key);
  const limit = (n: number | null) => String(n ?? -1);
  return {
    async try(ticket, tokens): Promise<GateTry> {
      const reply = (await redis.eval(
        TRY,
        keys.length,
        ...keys,
        ticket,
        String(tokens),
        limit(limits.maxInFlight),
        limit(limits.tokensPerMinute),
        String(options.leaseMs),
      )) as [string, string, string];
      if (reply[0] === "granted")
        return { kind: "granted", lease: reply[1], tokensInMinute: Number(reply[2]) };
      return { kind: "wait", cause: reply[1] as ProviderWaitCause, ms: Number(reply[2]) };
    },
    async renew(lease) {
      await redis.eval(RENEW, 1, key("leases"), lease, String(options.leaseMs));
    },
    async release(lease, tokens) {
      await redis.eval(RELEASE, 2, key("leases"), key("minute-tokens"), lease, String(tokens));
    },
    async leave(ticket) {
      await redis.multi().zrem(key("waiters"), ticket).zrem(key("seen"), ticket).exec();
    },
    async backOff(ms) {
      await redis.eval(BACK_OFF, 1, key("back-off"), String(Math.max(1, Math.round(ms))));
    },
    close: () => redis.disconnect(),
  };
}
