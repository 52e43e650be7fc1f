import { describe, expect, it } from "@jest/globals";
import { filterInSlices } from "../../../src/pipeline/filter-in-slices.ts";

describe("filterInSlices", () => {
  it("keeps what the predicate keeps, in order", async () => {
    const items = Array.from({ length: 100 }, (_, i) => i);
    expect(await filterInSlices(items, (n) => n % 3 === 0)).toEqual(items.filter((n) => n % 3 === 0));
  });

  it("yields a turn each time a slice of synchronous work is used up", async () => {
    // A clock that advances 2 ms per reading: every third item uses up a 5 ms slice.
    let clock = 0;
    const now = () => (clock += 2);
    let turns = 0;
    const kept = await filterInSlices(Array.from({ length: 30 }), () => true, {
      now,
      sliceMs: 5,
      yieldTurn: async () => {
        turns++;
      },
    });
    expect(kept).toHaveLength(30);
    expect(turns).toBeGreaterThanOrEqual(10);
  });

  it("lets other callbacks run before a long filter finishes", async () => {
    let otherRan = false;
    let ranBeforeLastItem = false;
    setImmediate(() => {
      otherRan = true;
    });
    const items = Array.from({ length: 20 }, (_, i) => i);
    await filterInSlices(items, (i) => {
      const until = performance.now() + 2; // real synchronous work: 2 ms an item
      while (performance.now() < until) {}
      if (i === items.length - 1) ranBeforeLastItem = otherRan;
      return true;
    });
    expect(ranBeforeLastItem).toBe(true);
  });
});
