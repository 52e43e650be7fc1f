// The probe the stall tests judge by: a block of the thread's own work counts whole, whatever the
// load; time the thread spends off the CPU does not.

import { describe, expect, it } from "@jest/globals";
import {
  BLOCK_PROMISE_MS,
  blockBoundFor,
  probeEventLoopBlocks,
  QUIET_REFERENCE_MS,
  referenceWorkMs,
  threadCpuMs,
} from "../../support/event-loop-blocks.ts";

/** Holds the event loop until this thread has spent `ms` of CPU on it. */
function spinFor(ms: number): void {
  const end = threadCpuMs() + ms;
  let sink = 0;
  while (threadCpuMs() < end) sink += Math.sqrt(sink + 1);
  expect(sink).toBeGreaterThan(0);
}

describe("the event-loop block probe", () => {
  it("reads a block of 150 ms of the thread's work as at least 150 ms", async () => {
    const probe = probeEventLoopBlocks();
    await new Promise((resolve) => setTimeout(resolve, 20));
    spinFor(150);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const { maxBlockMs, maxWallMs } = probe.stop();
    expect(maxBlockMs).toBeGreaterThanOrEqual(150);
    expect(maxWallMs).toBeGreaterThanOrEqual(maxBlockMs - 1);
  });

  it("does not count a wait off the CPU, which the wall clock does", async () => {
    const probe = probeEventLoopBlocks();
    await new Promise((resolve) => setTimeout(resolve, 20));
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 150);
    const { maxBlockMs, maxWallMs } = probe.stop();
    expect(maxWallMs).toBeGreaterThanOrEqual(150);
    expect(maxBlockMs).toBeLessThan(maxWallMs / 2);
  });
});

describe("the bound a block is judged by", () => {
  it("is the promise while the thread runs at its quiet speed or faster, never less", () => {
    expect(blockBoundFor(QUIET_REFERENCE_MS)).toBe(BLOCK_PROMISE_MS);
    expect(blockBoundFor(QUIET_REFERENCE_MS / 3)).toBe(BLOCK_PROMISE_MS);
  });

  it("moves with how much slower than quiet the reference workload runs", () => {
    expect(blockBoundFor(QUIET_REFERENCE_MS * 1.5)).toBeCloseTo(BLOCK_PROMISE_MS * 1.5);
    expect(blockBoundFor(QUIET_REFERENCE_MS * 2, 50)).toBeCloseTo(100);
  });

  it("is measured by the probe from the reference workload around the work, never below the promise", () => {
    expect(referenceWorkMs()).toBeGreaterThan(0);
    const { boundMs } = probeEventLoopBlocks().stop();
    expect(boundMs).toBeGreaterThanOrEqual(BLOCK_PROMISE_MS);
  });
});
