// The repository worker pool warmed at start-up, with the production worker script: the first
// review's first call does not wait for a worker to load its modules, and a review racing the
// warm-up shares the start under way instead of starting a second worker for its slot. Workers
// are counted by the directories the pool makes for them (one per worker started), which the
// pool removes when it closes; a process killed before it could (SIGKILL here, as the OOM killer
// does) leaves them, and the next pool's warm-up removes them.

import { spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { DEFAULT_REPLY_LIMITS } from "../../../src/config/reply-limits.ts";
import { DEFAULT_REVIEW_LIMITS } from "../../../src/config/review-limits.ts";
import { ownerOfWorkerDir, thisProcess, workerDirPrefix } from "../../../src/isolation/worker-dirs.ts";
import { repositoryWorkerEntry } from "../../../src/isolation/worker-entry.ts";
import {
  createWorkerPool,
  type WorkerLease,
  type WorkerPool,
  type WorkerPoolOptions,
} from "../../../src/isolation/worker-pool.ts";

let tmpRoot: string;
const pools: WorkerPool[] = [];

beforeEach(() => {
  tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-pool-warm-"));
});

afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.close();
  fs.rmSync(tmpRoot, { recursive: true, force: true });
});

function poolOptions(size: number): WorkerPoolOptions {
  const limits = { ...DEFAULT_REVIEW_LIMITS, verify: false };
  return {
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
  };
}

function pool(size: number): WorkerPool {
  const created = createWorkerPool(poolOptions(size));
  pools.push(created);
  return created;
}

const POOL_PROCESS = fileURLToPath(new URL("../../support/pool-process.ts", import.meta.url));

/** A Loupe process with a warmed pool of `size` workers in `tmpRoot`, running until it is killed. */
async function poolProcess(size: number) {
  const { entry, ...rest } = poolOptions(size);
  const child = spawn(process.execPath, [POOL_PROCESS, JSON.stringify({ ...rest, entry: entry.href })], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const [line] = (await once(child.stdout!, "data")) as [Buffer];
    expect(JSON.parse(line.toString())).toMatchObject({ ready: size, failed: 0 });
    return child;
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
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
    expect(await warmed.warm()).toEqual({ ready: 1, failed: 0, abandonedDirsRemoved: 0 });
    const warm = await firstCallMs(warmed);
    // The cold call includes the worker's start (loading Loupe's modules); the warm one does not.
    expect(warm / cold).toBeLessThan(0.25);
  });

  it("starts one worker per slot when a review's lease races the warm-up", async () => {
    const workers = pool(2);
    const warming = workers.warm();
    const [first, second] = await Promise.all([workers.acquire(), workers.acquire()]);
    const calls = Promise.all([touch(first), touch(second)]);
    expect(await warming).toEqual({ ready: 2, failed: 0, abandonedDirsRemoved: 0 });
    expect(await calls).toEqual([
      { kind: "done", value: null },
      { kind: "done", value: null },
    ]);
    expect(workerDirs()).toHaveLength(2);
    // A second warm-up finds both running and starts nothing.
    expect(await workers.warm()).toEqual({ ready: 2, failed: 0, abandonedDirsRemoved: 0 });
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

  it("removes at its first warm-up the directories a killed process left, and no one else's", async () => {
    const killed = await poolProcess(2);
    const left = workerDirs();
    expect(left).toHaveLength(2);
    const owners = left.map((name) => ownerOfWorkerDir(name));
    expect(owners.map((owner) => owner?.host)).toEqual([os.hostname(), os.hostname()]);
    expect(owners.map((owner) => owner?.pid)).toEqual([killed.pid, killed.pid]);
    fs.writeFileSync(path.join(tmpRoot, left[0]!, "fetched.pack"), "a review's fetched pack");
    killed.kill("SIGKILL");
    await once(killed, "exit");
    expect(workerDirs()).toEqual(left); // no process of its own could remove them

    const self = thisProcess();
    // Also removed: an earlier process's that had this process's id (a restarted container's
    // server is process 1 each time, and keeps its temp directory), told apart by its token.
    const earlier = `${workerDirPrefix({ ...self, token: self.token === "0badc0de" ? "0badc0df" : "0badc0de" })}Ab3dE9`;
    // Kept: a running process's (its id asked of this host), another host's (a container sharing
    // the temp directory has ids of its own), another pool's of this process, and the older
    // form's, which names no owner.
    const running = spawn("sleep", ["60"], { stdio: "ignore" });
    const kept = [
      `${workerDirPrefix({ ...self, pid: running.pid! })}Ab3dE9`,
      `${workerDirPrefix({ host: "another-host-7", pid: killed.pid!, token: owners[0]!.token })}Ab3dE9`,
      `${workerDirPrefix(self)}Ab3dE9`,
      "loupe-worker-Ab3dE9",
    ];
    for (const name of [earlier, ...kept]) fs.mkdirSync(path.join(tmpRoot, name));
    try {
      const workers = pool(1);
      expect(await workers.warm()).toEqual({ ready: 1, failed: 0, abandonedDirsRemoved: 3 });
      const own = workerDirs().filter((name) => !kept.includes(name));
      expect(own).toHaveLength(1);
      expect(ownerOfWorkerDir(own[0]!)).toEqual(self);
      expect(
        workerDirs()
          .filter((name) => kept.includes(name))
          .sort(),
      ).toEqual([...kept].sort());
      // The sweep is the first warm-up's: a later one removes nothing more.
      expect(await workers.warm()).toEqual({ ready: 1, failed: 0, abandonedDirsRemoved: 0 });
    } finally {
      running.kill();
    }
  });
});
