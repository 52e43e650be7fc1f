// The worker's side of the gate across the worker boundary (gate-messages.ts): a ProviderGate whose
// every acquisition is asked of the server's thread, where the process's one gate decides.

import type { GateEntry, ProviderGate, ProviderWait } from "../llm/provider-gate.ts";
import type { GateCall, GateNews } from "./gate-messages.ts";

export interface GateClient {
  readonly gate: ProviderGate;
  receive(id: number, news: GateNews): void;
}

interface Asking {
  readonly settle: (entry: GateEntry) => void;
  readonly onWait: ((wait: ProviderWait) => void) | undefined;
}

export function gateClient(ask: (id: number, call: GateCall) => void): GateClient {
  const asking = new Map<number, Asking>();
  let nextId = 1;
  const passFor = (id: number) => {
    let released = false;
    return {
      async release(tokens: number) {
        if (released) return;
        released = true;
        ask(id, { kind: "release", tokens });
      },
    };
  };
  return {
    gate: {
      acquire({ tokens, deadline, signal, onWait }) {
        const id = nextId++;
        return new Promise<GateEntry>((resolve) => {
          if (signal.aborted) return resolve({ kind: "cancelled" });
          const onAbort = (): void => {
            asking.delete(id);
            ask(id, { kind: "abandon" });
            resolve({ kind: "cancelled" });
          };
          signal.addEventListener("abort", onAbort, { once: true });
          asking.set(id, {
            onWait,
            settle: (entry) => {
              signal.removeEventListener("abort", onAbort);
              resolve(entry);
            },
          });
          ask(id, { kind: "acquire", tokens, deadline });
        });
      },
      async backOff(ms) {
        ask(0, { kind: "back_off", ms });
      },
    },
    receive(id, news) {
      const waiting = asking.get(id);
      if (waiting === undefined) return;
      if (news.kind === "wait") return waiting.onWait?.(news.wait);
      asking.delete(id);
      waiting.settle(
        news.entry === "granted" ? { kind: "granted", pass: passFor(id) } : { kind: news.entry },
      );
    },
  };
}
