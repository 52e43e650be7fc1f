import { describe, expect, it } from "@jest/globals";
import { mapBounded } from "../../../src/eval/bounded-map.ts";

describe("mapBounded", () => {
  it("keeps the input's order and never runs more than the limit at once", async () => {
    let running = 0;
    let most = 0;
    const gates: (() => void)[] = [];
    const mapped = mapBounded([1, 2, 3, 4, 5], 2, async (n) => {
      running++;
      most = Math.max(most, running);
      // Finish in reverse order of start, so order cannot come from completion.
      await new Promise<void>((resolve) => gates.push(resolve));
      running--;
      return n * 10;
    });
    while (gates.length > 0 || running > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      gates.pop()?.();
    }
    expect(await mapped).toEqual([10, 20, 30, 40, 50]);
    expect(most).toBe(2);
  });

  it("maps nothing to nothing", async () => {
    expect(await mapBounded([], 4, async () => 1)).toEqual([]);
  });
});
