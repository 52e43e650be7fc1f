// The server's side of the gate across the worker boundary (gate-messages.ts): each worker's
// acquisitions go to the process's one gate, and whatever a worker held when it ended — killed for
// memory or time, or closed — is given back, so a worker's death never keeps a place.

import type { GatePass, ProviderGate } from "../llm/provider-gate.ts";
import type { GateCall, GateNews } from "./gate-messages.ts";

export interface GateHost {
  handle(id: number, call: GateCall): void;
  /** The worker has ended: stop its waits and give back its passes. */
  close(): void;
}

export function hostGate(gate: ProviderGate, tell: (id: number, news: GateNews) => void): GateHost {
  const waiting = new Map<number, AbortController>();
  const held = new Map<number, GatePass>();
  let closed = false;
  const giveBack = (id: number, tokens: number) => {
    const pass = held.get(id);
    held.delete(id);
    void pass?.release(tokens);
  };
  return {
    handle(id, call) {
      if (call.kind === "back_off") {
        void gate.backOff(call.ms).catch(() => {});
        return;
      }
      if (call.kind === "release") return giveBack(id, call.tokens);
      if (call.kind === "abandon") {
        waiting.get(id)?.abort();
        return giveBack(id, 0);
      }
      const controller = new AbortController();
      waiting.set(id, controller);
      void gate
        .acquire({
          tokens: call.tokens,
          deadline: call.deadline,
          signal: controller.signal,
          onWait: (wait) => tell(id, { kind: "wait", wait }),
        })
        .catch(() => ({ kind: "expired" }) as const)
        .then((entry) => {
          waiting.delete(id);
          if (entry.kind !== "granted") return tell(id, { kind: "entry", entry: entry.kind });
          // Abandoned or ended while the grant was on its way: nobody will use it.
          if (controller.signal.aborted || closed) return void entry.pass.release(0);
          held.set(id, entry.pass);
          tell(id, { kind: "entry", entry: "granted" });
        });
    },
    close() {
      closed = true;
      for (const controller of waiting.values()) controller.abort();
      for (const id of [...held.keys()]) giveBack(id, 0);
    },
  };
}
