// Deliveries the queue could not take, held and handed over again in their order when it is back;
// past the bound the oldest is dropped with a line naming it, and a shutdown names each one held.
// The queue's refusal is the real QueueUnavailableError; the waits are the test's own.

import { describe, expect, it } from "@jest/globals";
import { createHeldDeliveries } from "../../../src/jobs/held-deliveries.ts";
import { QueueUnavailableError } from "../../../src/jobs/queue-unavailable.ts";

function world(options: { maxHeld?: number } = {}) {
  let queueUp = false;
  const taken: number[] = [];
  const lines: { level: string; fields: object; msg: string }[] = [];
  const wakes: (() => void)[] = [];
  const held = createHeldDeliveries<number>({
    handle: async (n) => {
      if (!queueUp)
        throw new QueueUnavailableError(new Error("ECONNREFUSED"), "Redis at 127.0.0.1 did not answer");
      taken.push(n);
    },
    unavailable: (error) => error instanceof QueueUnavailableError,
    describe: (n) => ({ mr: n }),
    log: {
      info: (fields, msg) => lines.push({ level: "info", fields, msg }),
      warn: (fields, msg) => lines.push({ level: "warn", fields, msg }),
      error: (fields, msg) => lines.push({ level: "error", fields, msg }),
    },
    sleep: () => new Promise<void>((resolve) => wakes.push(resolve)),
    ...options,
  });
  const tick = async () => {
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  return {
    held,
    taken,
    lines,
    tick,
    up: () => {
      queueUp = true;
    },
    wake: async () => {
      for (const wake of wakes.splice(0)) wake();
      await tick();
    },
  };
}

describe("held deliveries", () => {
  it("are handed to the queue in their order once it is back, later ones behind them", async () => {
    const w = world();
    w.held.take(1);
    await w.tick();
    w.held.take(2);
    w.held.take(3);
    await w.tick();
    expect(w.held.held()).toBe(3);
    await w.wake(); // still away: the wait grows, nothing is lost
    expect(w.held.held()).toBe(3);
    w.up();
    w.held.take(4); // arrives after the queue is back, but behind the held ones
    for (let i = 0; i < 5 && w.held.held() > 0; i++) await w.wake();
    await w.held.idle();
    expect(w.taken).toEqual([1, 2, 3, 4]);
    expect(w.lines.filter((l) => l.level === "warn")).toHaveLength(1);
    expect(w.lines.at(-1)?.msg).toBe("every held webhook is in the queue");
  });

  it("drop the oldest past their bound, and name each one left on shutdown", async () => {
    const w = world({ maxHeld: 2 });
    w.held.take(1);
    await w.tick();
    w.held.take(2);
    w.held.take(3);
    await w.tick();
    expect(w.held.held()).toBe(2);
    const errors = () => w.lines.filter((l) => l.level === "error");
    expect(errors().map((l) => l.fields)).toEqual([{ mr: 1, held: 2 }]);
    w.held.close();
    expect(errors().map((l) => l.fields)).toEqual([{ mr: 1, held: 2 }, { mr: 2 }, { mr: 3 }]);
    await w.held.idle();
  });
});
