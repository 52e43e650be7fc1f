// The process's shutdown on SIGTERM: its queues stop together, then what they used is closed in
// order, and the log tells it from start to end. A hard deadline backs it: should a step hang
// whatever its own bounds (a queue that never settles), the process still exits, with code 1.

import { describe, expect, it } from "@jest/globals";
import { shutDownProcess } from "../../../src/jobs/process-shutdown.ts";

function recorder() {
  const lines: string[] = [];
  const log = {
    info: (_: object, msg: string) => lines.push(msg),
    warn: (_: object, msg: string) => lines.push(msg),
  };
  const exited = Promise.withResolvers<number>();
  return { lines, log, exited };
}

describe("shutDownProcess", () => {
  it("stops the queues, then closes in order, logs start and end, exits 0", async () => {
    const { lines, log, exited } = recorder();
    const order: string[] = [];
    void shutDownProcess({
      graceMs: 0,
      log,
      queues: [
        { shutdown: async () => void order.push("reviews") },
        { shutdown: async () => void order.push("replies") },
      ],
      after: [() => void order.push("workers"), async () => void order.push("server")],
      exit: exited.resolve,
    });
    expect(await exited.promise).toBe(0);
    expect(order).toEqual(["reviews", "replies", "workers", "server"]);
    expect(lines).toEqual(["shutdown started", "shutdown ended"]);
  });

  it("exits 1 at the deadline when a queue never settles, saying so", async () => {
    const { lines, log, exited } = recorder();
    void shutDownProcess({
      graceMs: 0,
      marginMs: 50,
      log,
      queues: [{ shutdown: () => new Promise<void>(() => {}) }],
      after: [],
      exit: exited.resolve,
    });
    expect(await exited.promise).toBe(1);
    expect(lines).toEqual(["shutdown started", "shutdown deadline passed; exiting with work left behind"]);
  });
});
