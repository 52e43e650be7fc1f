// The provider gate across the worker boundary: the loops run in a repository worker, but the gate
// (its counts in this process, or its connection to the fleet's Redis) lives in the server's
// thread, shared by every worker. A worker asks for a pass, is told when it waits and why, and
// gives the pass back; plain data only, like the rest of protocol.ts.

import type { ProviderWait } from "../llm/provider-gate.ts";

/** From the worker: `id` names one acquisition, from its request to its release. */
export type GateCall =
  | { readonly kind: "acquire"; readonly tokens: number; readonly deadline: number }
  | { readonly kind: "release"; readonly tokens: number }
  /** The request was cancelled while it waited: a pass granted meanwhile is given back unused. */
  | { readonly kind: "abandon" }
  | { readonly kind: "back_off"; readonly ms: number };

/** To the worker. */
export type GateNews =
  | { readonly kind: "entry"; readonly entry: "granted" | "expired" | "cancelled" }
  | { readonly kind: "wait"; readonly wait: ProviderWait };
