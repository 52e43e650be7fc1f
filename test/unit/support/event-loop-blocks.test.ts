// The probe the stall tests judge by: a block of the thread's own work counts whole, whatever the
// load; time the thread spends off the CPU does not.

import { describe, expect, it } from "@jest/globals";
import { probeEventLoopBlocks, threadCpuMs } from "../../support/event-loop-blocks.ts";

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
