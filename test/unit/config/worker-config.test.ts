import { describe, expect, it } from "@jest/globals";
import {
  WORKER_MEMORY_MB,
  WORKER_THREADS_CAP,
  WorkerConfigSchema,
} from "../../../src/config/worker-config.ts";
import { deadlineGraceMs, resourceLimitsFor } from "../../../src/isolation/worker-thread.ts";
import { settingsError, settingsOf } from "../../support/settings.ts";

describe("the repository workers' settings", () => {
  it("default to one worker per review slot and a 512 MiB heap", () => {
    expect(settingsOf(WorkerConfigSchema, { REVIEW_CONCURRENCY: "3" })).toEqual({
      threads: 3,
      memoryMb: WORKER_MEMORY_MB.default,
    });
    expect(settingsOf(WorkerConfigSchema, { REVIEW_WORKERS: "5", REVIEW_WORKER_MEMORY_MB: "64" })).toEqual({
      threads: 5,
      memoryMb: 64,
    });
  });

  it("refuse values out of bounds, naming the variable", () => {
    for (const [env, message] of [
      [{ REVIEW_WORKERS: "0" }, `REVIEW_WORKERS="0" is not an integer from 1 to ${WORKER_THREADS_CAP}`],
      [{ REVIEW_WORKERS: String(WORKER_THREADS_CAP + 1) }, "REVIEW_WORKERS="],
      [{ REVIEW_WORKER_MEMORY_MB: "lots" }, 'REVIEW_WORKER_MEMORY_MB="lots" is not an integer'],
      [{ REVIEW_WORKER_MEMORY_MB: "16" }, `from ${WORKER_MEMORY_MB.min} to ${WORKER_MEMORY_MB.cap}`],
      [{ REVIEW_WORKER_MEMORY_MB: "5000" }, 'REVIEW_WORKER_MEMORY_MB="5000"'],
    ] as const) {
      expect(settingsError(WorkerConfigSchema, env)).toContain(message);
    }
  });

  it("give V8 the heap as set, a young generation in proportion and a 4 MiB stack", () => {
    expect(resourceLimitsFor(512)).toEqual({
      maxOldGenerationSizeMb: 512,
      maxYoungGenerationSizeMb: 48,
      stackSizeMb: 4,
    });
    expect(resourceLimitsFor(64).maxYoungGenerationSizeMb).toBe(8);
  });

  it("allow a grace of a tenth of the review's budget, from 2 to 30 seconds", () => {
    expect(deadlineGraceMs(300_000)).toBe(30_000);
    expect(deadlineGraceMs(1_800_000)).toBe(30_000);
    expect(deadlineGraceMs(60_000)).toBe(6_000);
    expect(deadlineGraceMs(1_000)).toBe(2_000);
  });
});
