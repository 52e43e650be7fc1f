// The operator's settings for the worker threads that do the App's repository work (the fetch,
// the tools, the plan: src/isolation): how many run in this process, and how much heap each may
// use before it is stopped. Every value has a default and a hard cap in the schema.

import * as v from "valibot";
import { REVIEW_CONCURRENCY } from "./app-config.ts";
import { integerVar, optionalIntegerVar } from "./env-fields.ts";

export const WORKER_THREADS_CAP = 32;

/**
 * A worker's heap: the default leaves room for a large repository's trees and files, the cap keeps
 * one review from taking a whole machine, and below the minimum a worker cannot even load Loupe's
 * modules (about 25 MiB).
 */
export const WORKER_MEMORY_MB = Object.freeze({ default: 512, min: 32, cap: 4096 });

export const WorkerConfigSchema = v.pipe(
  v.object({
    REVIEW_CONCURRENCY,
    REVIEW_WORKERS: optionalIntegerVar("REVIEW_WORKERS", 1, WORKER_THREADS_CAP, "REVIEW_CONCURRENCY"),
    REVIEW_WORKER_MEMORY_MB: integerVar(
      "REVIEW_WORKER_MEMORY_MB",
      WORKER_MEMORY_MB.min,
      WORKER_MEMORY_MB.cap,
      WORKER_MEMORY_MB.default,
    ),
  }),
  v.transform((env) => ({
    /** Worker threads in this process (one per review that may run at once by default); reviews and replies share them. */
    threads: env.REVIEW_WORKERS ?? env.REVIEW_CONCURRENCY,
    /** Each worker's V8 heap limit (its old generation), in MiB. */
    memoryMb: env.REVIEW_WORKER_MEMORY_MB,
  })),
);
