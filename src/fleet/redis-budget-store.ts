// Spend counted in the fleet's Redis, so that every replica sees every reservation. A reservation
// reads every counter and adds to all of them in one Lua script: Redis runs a script alone, so two
// replicas racing for the last of a cap cannot both get it (a read then a write from Node could).
// The rule is the one the single process applies (domain/budget.ts `grantFrom`), written again in
// Lua only because it must run inside Redis. Counters expire when their period ends, measured on
// the injected clock that chose the period (a time to live, not Redis's own clock: a counter for a
// period the caller's clock is in must not vanish because Redis's clock says otherwise).

import { Redis } from "ioredis";
import type { BudgetCounter, BudgetStore, Grant } from "../domain/budget.ts";

const RESERVE = `
local min = tonumber(ARGV[1])
local grant = tonumber(ARGV[2])
local rate = tonumber(ARGV[3])
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[3 + (i - 1) * 3 + 1])
  local unit = ARGV[3 + (i - 1) * 3 + 2]
  local spent = tonumber(redis.call('GET', key) or '0')
  local per = 1
  if unit == 'dollars' then per = rate end
  if per > 0 then
    local fits = math.floor((limit - spent) / per + 1e-9)
    if fits < min then return {'refused', tostring(i), tostring(spent)} end
    if fits < grant then grant = fits end
  end
end
for i, key in ipairs(KEYS) do
  local unit = ARGV[3 + (i - 1) * 3 + 2]
  local resets = ARGV[3 + (i - 1) * 3 + 3] -- milliseconds to the period's end
  local amount = grant
  if unit == 'dollars' then amount = grant * rate end
  redis.call('INCRBYFLOAT', key, tostring(amount))
  redis.call('PEXPIRE', key, math.max(1, tonumber(resets)))
end
return {'granted', tostring(grant)}
`;

const ADJUST = `
local held = {}
for i, key in ipairs(KEYS) do
  local value = tonumber(redis.call('INCRBYFLOAT', key, ARGV[(i - 1) * 2 + 1]))
  if value < 0 then
    redis.call('SET', key, '0')
    value = 0
  end
  redis.call('PEXPIRE', key, math.max(1, tonumber(ARGV[(i - 1) * 2 + 2])))
  held[i] = tostring(value)
end
return held
`;

export interface RedisBudgetStore extends BudgetStore {
  close(): void;
}

export function createRedisBudgetStore(options: {
  redisUrl: string;
  prefix?: string;
  now?: () => number;
}): RedisBudgetStore {
  // Connected on first use: a fleet with no caps never opens it.
  const redis = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
  const prefix = options.prefix ?? "loupe:budget:";
  const now = options.now ?? Date.now;
  const keys = (counters: readonly BudgetCounter[]) => counters.map((c) => `${prefix}${c.key}`);
  const timeToLive = (counter: BudgetCounter) => String(Math.max(1, counter.resetsAt - now()));
  return {
    async reserve(counters, want, dollarsPerToken): Promise<Grant> {
      const args = counters.flatMap((c) => [String(c.limit), c.cap.unit, timeToLive(c)]);
      const reply = (await redis.eval(
        RESERVE,
        counters.length,
        ...keys(counters),
        String(want.min),
        String(want.max),
        String(dollarsPerToken),
        ...args,
      )) as [string, string, string?];
      if (reply[0] === "granted") return { kind: "granted", tokens: Number(reply[1]) };
      return { kind: "refused", counter: counters[Number(reply[1]) - 1]!, spent: Number(reply[2]) };
    },
    async adjust(counters, amounts) {
      if (counters.length === 0) return [];
      const args = counters.flatMap((c, i) => [String(amounts[i] ?? 0), timeToLive(c)]);
      const held = (await redis.eval(ADJUST, counters.length, ...keys(counters), ...args)) as string[];
      return held.map(Number);
    },
    async claim(key, resetsAt) {
      // SET NX is atomic: of the replicas that see a threshold passed, exactly one is told "OK".
      const ttl = Math.max(1, resetsAt - now());
      return (await redis.set(`${prefix}claimed:${key}`, "1", "PX", ttl, "NX")) === "OK";
    },
    close: () => redis.disconnect(),
  };
}
