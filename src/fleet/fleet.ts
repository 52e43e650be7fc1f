// A replica's fleet: the Redis that REDIS_URL names, which the replicas' queues, provider share and
// budget live in, and the parts that speak to it. Loaded once at start, before the queues are
// chosen, so that a process without REDIS_URL never loads bullmq or ioredis (redis-backends.ts).

export type RedisBackends = typeof import("./redis-backends.ts");

export interface Fleet {
  readonly redisUrl: string;
  readonly redis: RedisBackends;
}

/** The fleet REDIS_URL names, with its Redis parts loaded; null for the single process. */
export async function loadFleet(redisUrl: string | null): Promise<Fleet | null> {
  return redisUrl === null ? null : { redisUrl, redis: await import("./redis-backends.ts") };
}
