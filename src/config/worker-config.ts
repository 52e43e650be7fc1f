// The operator's settings for the worker threads that do the App's repository work (the fetch,
// the tools, the plan: src/isolation): how many run in this process, and how much heap each may
// use before it is stopped. Every value has a default and a hard cap; a bad value is a
// configuration error naming the variable.

import { LoupeError } from "../domain/errors.ts";
import { readPositiveInteger } from "./env-integer.ts";

type Env = Readonly<Record<string, string | undefined>>;

export interface WorkerConfig {
  /** Worker threads in this process; reviews and replies share them. */
  readonly threads: number;
  /** Each worker's V8 heap limit (its old generation), in MiB. */
  readonly memoryMb: number;
}

export const WORKER_THREADS_CAP = 32;

/**
 * A worker's heap: the default leaves room for a large repository's trees and files, the cap keeps
 * one review from taking a whole machine, and below the minimum a worker cannot even load Loupe's
 * modules (about 25 MiB).
 */
export const WORKER_MEMORY_MB = Object.freeze({ default: 512, min: 32, cap: 4096 });

/** The number of workers defaults to REVIEW_CONCURRENCY: one per review that may run at once. */
export function readWorkerConfig(env: Env, reviewConcurrency: number): WorkerConfig {
  const threads = readPositiveInteger(env, "REVIEW_WORKERS", reviewConcurrency, WORKER_THREADS_CAP);
  const memoryMb = readPositiveInteger(
    env,
    "REVIEW_WORKER_MEMORY_MB",
    WORKER_MEMORY_MB.default,
    WORKER_MEMORY_MB.cap,
  );
  if (memoryMb < WORKER_MEMORY_MB.min) {
    throw new LoupeError(
      "configuration_invalid",
      `REVIEW_WORKER_MEMORY_MB must be at least ${WORKER_MEMORY_MB.min} (got ${memoryMb})`,
    );
  }
  return { threads, memoryMb };
}
