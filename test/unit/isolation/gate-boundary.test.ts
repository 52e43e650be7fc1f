// The provider gate across the worker boundary: a worker's requests ask the server thread's one
// gate (here wired message for message, as postMessage would carry them), are told why they wait,
// and whatever a worker held when it ended — stopped for memory or time — is given back.

import { expect, it } from "@jest/globals";
import { gateClient } from "../../../src/isolation/gate-client.ts";
import { hostGate } from "../../../src/isolation/gate-host.ts";
import { createMemoryGateBackend } from "../../../src/jobs/memory-provider-gate.ts";
import { createProviderGate, type ProviderWait } from "../../../src/llm/provider-gate.ts";

function serverGate(maxInFlight: number) {
  const backend = createMemoryGateBackend({ maxInFlight, tokensPerMinute: null }, { leaseMs: 60_000 });
  let next = 0;
  return createProviderGate(backend, {
    timing: { leaseMs: 60_000, pollMs: 5 },
    newTicket: () => `t${next++}`,
  });
}

/** One worker: its client, and the server's host of its messages. */
function worker(gate: ReturnType<typeof serverGate>) {
  let client: ReturnType<typeof gateClient> | null = null;
  const host = hostGate(gate, (id, news) => queueMicrotask(() => client!.receive(id, news)));
  client = gateClient((id, call) => queueMicrotask(() => host.handle(id, call)));
  return { gate: client.gate, host };
}

const ask = (
  gate: { acquire: ReturnType<typeof gateClient>["gate"]["acquire"] },
  waits?: ProviderWait[],
  signal = new AbortController().signal,
) =>
  gate.acquire({
    tokens: 1,
    deadline: Date.now() + 60_000,
    signal,
    ...(waits ? { onWait: (w: ProviderWait) => waits.push(w) } : {}),
  });

it("gives back what a worker held when it ended, so the next request goes", async () => {
  const gate = serverGate(1);
  const dying = worker(gate);
  const other = worker(gate);
  expect((await ask(dying.gate)).kind).toBe("granted");
  const waits: ProviderWait[] = [];
  const waiting = ask(other.gate, waits);
  await new Promise((resolve) => setTimeout(resolve, 30));
  expect(waits).toEqual([{ cause: "in_flight", seconds: null }]);
  // The worker is terminated without giving its pass back itself.
  dying.host.close();
  expect((await waiting).kind).toBe("granted");
});

it("keeps no place for a request cancelled while it waited", async () => {
  const gate = serverGate(1);
  const one = worker(gate);
  const held = await ask(one.gate);
  if (held.kind !== "granted") throw new Error("granted");
  const controller = new AbortController();
  const cancelled = ask(one.gate, undefined, controller.signal);
  await new Promise((resolve) => setTimeout(resolve, 20));
  controller.abort();
  expect((await cancelled).kind).toBe("cancelled");
  await held.pass.release(1);
  const next = await ask(worker(gate).gate);
  expect(next.kind).toBe("granted");
});
