// The repository worker pool warmed at start-up, with the production worker script: the first
// review's first call does not wait for a worker to load its modules, and a review racing the
// warm-up shares the start under way instead of starting a second worker for its slot. Workers
// are counted by the directories the pool makes for them (one per worker started), which the
// pool removes when it closes.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { DEFAULT_REPLY_LIMITS } from "../../../src/config/reply-limits.ts";
import { DEFAULT_REVIEW_LIMITS } from "../../../src/config/review-limits.ts";
import { repositoryWorkerEntry } from "../../../src/isolation/worker-entry.ts";
import { createWorkerPool, type WorkerLease, type WorkerPool } from "../../../src/isolation/worker-pool.ts";

let tmpRoot: string;
const pools: WorkerPool[] = [];

beforeEach(() => {
  tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-pool-warm-"));
});

afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.close();
  fs.rmSync(tmpRoot, { recursive: true, force: true });
});

function pool(size: number): WorkerPool {
  const limits = { ...DEFAULT_REVIEW_LIMITS, verify: false };
  const created = createWorkerPool({
    size,
    entry: repositoryWorkerEntry(),
    setup: {
      // Never asked: the calls here touch no model.
      provider: {
        baseURL: "http://127.0.0.1:9/v1",
        apiKey: "sk-pool-warm-0123456789",
        model: "m",
        maxResponseBytes: limits.maxResponseBytes,
        maxRetries: 0,
        toolCalls: "auto",
      },
      limits,
      replyLimits: { ...limits, ...DEFAULT_REPLY_LIMITS },
      includeTrace: false,
    },
    memoryMb: 256,
    graceMs: 2_000,
    tmpRoot,
  });
  pools.push(created);
  return created;
}

/** The cheapest call a worker answers: disposing of a workspace it does not hold. */
const touch = (lease: WorkerLease) => lease.call({ kind: "dispose", workspace: 0 }, { allowedMs: 60_000 });

/** The time of a lease's first call. */
async function firstCallMs(workers: WorkerPool): Promise<number> {
  const lease = await workers.acquire();
  const started = performance.now();
  expect(await touch(lease)).toEqual({ kind: "done", value: null });
  const took = performance.now() - started;
  lease.release();
  return took;
}

const workerDirs = () => fs.readdirSync(tmpRoot).filter((name) => name.startsWith("loupe-worker-"));

describe("the repository worker pool, warmed at start-up", () => {
  it("answers the first review's first call without waiting for a worker to load", async () => {
    const cold = await firstCallMs(pool(1));
    const warmed = pool(1);
    expect(await warmed.warm()).toEqual({ ready: 1, failed: 0 });
    const warm = await firstCallMs(warmed);
    // The cold call includes the worker's start (loading Loupe's modules); the warm one does not.
    expect(warm / cold).toBeLessThan(0.25);
  });

  it("starts one worker per slot when a review's lease races the warm-up", async () => {
    const workers = pool(2);
    const warming = workers.warm();
    const [first, second] = await Promise.all([workers.acquire(), workers.acquire()]);
    const calls = Promise.all([touch(first), touch(second)]);
    expect(await warming).toEqual({ ready: 2, failed: 0 });
    expect(await calls).toEqual([
      { kind: "done", value: null },
      { kind: "done", value: null },
    ]);
    expect(workerDirs()).toHaveLength(2);
    // A second warm-up finds both running and starts nothing.
    expect(await workers.warm()).toEqual({ ready: 2, failed: 0 });
    expect(workerDirs()).toHaveLength(2);
    first.release();
    second.release();
    await workers.close();
    expect(workerDirs()).toEqual([]);
  });

  it("closed while warming up: no worker and no directory is left", async () => {
    const workers = pool(2);
    const warming = workers.warm();
    await workers.close();
    const outcome = await warming;
    expect(outcome.ready + outcome.failed).toBe(2);
    expect(workerDirs()).toEqual([]);
  });
});
