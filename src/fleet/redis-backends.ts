// Every part of the fleet that speaks to Redis, behind one module that a process loads only when
// REDIS_URL names a Redis (loadFleet): bullmq and ioredis cost a fresh process about 0.2 s of CPU
// to load, which the single process, whose queues live in its memory, never needs.

export { createRedisBudgetStore } from "./redis-budget-store.ts";
export { createRedisGateBackend } from "./redis-provider-gate.ts";
export { createRedisQueue } from "./redis-queue.ts";
export { createRedisReplyQueue } from "./redis-reply-queue.ts";
