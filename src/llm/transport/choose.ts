// Which transport a review uses, and the one switch auto mode may make: native first, then text
// for the rest of the review when the provider refuses `tools` (a 400/422 naming them) or answers
// the first turn with marker lines. The switch is possible only before the first turn is
// accepted, so a review never mixes native tool messages with text results.

import type { ToolCallMode } from "../../config/provider-config.ts";
import type { ToolSchemaForModel } from "../../tools/types.ts";
import { isRecord } from "../envelope.ts";
import type { ProviderOutcome } from "../provider.ts";
import { toolCatalog } from "./catalog.ts";
import { scanMarkers } from "./markers.ts";
import { createNativeTransport } from "./native.ts";
import { createTextTransport } from "./text.ts";
import type { TurnTransport } from "./types.ts";

export type TransportSwitchCause = "provider_rejected_tools" | "marker_calls";

export interface TransportSwitch {
  readonly round: number;
  readonly cause: TransportSwitchCause;
}

export interface TransportChoice {
  readonly current: TurnTransport;
  readonly switched: TransportSwitch | null;
  /** After a failed request: true when it refused `tools` and auto switched to text (retry it). */
  switchOnRefusal(outcome: ProviderOutcome & { kind: "failure" }, round: number): boolean;
  /** After the first answer: true when it holds marker lines and auto switched to text. */
  settle(body: unknown, round: number): boolean;
  /** Marker text never leaves Loupe: removed from the final answer whenever markers were offered. */
  readonly offersMarkers: boolean;
}

export function chooseTransport(
  mode: ToolCallMode,
  options: {
    readonly model: string;
    readonly schemas: readonly ToolSchemaForModel[];
    readonly maxCallsPerRound: number;
  },
): TransportChoice {
  const catalog = (use: "only" | "fallback") => toolCatalog(options.schemas, options.maxCallsPerRound, use);
  const text = createTextTransport({ model: options.model, catalog: catalog("only") });
  let current: TurnTransport =
    mode === "text"
      ? text
      : createNativeTransport({
          model: options.model,
          schemas: options.schemas,
          fallbackCatalog: mode === "auto" ? catalog("fallback") : null,
        });
  let open = mode === "auto";
  let switched: TransportSwitch | null = null;
  const switchTo = (cause: TransportSwitchCause, round: number): true => {
    current = text;
    open = false;
    switched = { round, cause };
    return true;
  };
  return {
    get current() {
      return current;
    },
    get switched() {
      return switched;
    },
    switchOnRefusal: (outcome, round) =>
      open && outcome.toolsRejected === true && switchTo("provider_rejected_tools", round),
    settle(body, round) {
      if (!open) return false;
      open = false;
      return scanMarkers(firstContent(body)).kind !== "none" && switchTo("marker_calls", round);
    },
    offersMarkers: mode !== "native",
  };
}

/** The first choice's text, when the answer has no native calls (a native call wins). */
function firstContent(body: unknown): unknown {
  const choice = isRecord(body) && Array.isArray(body.choices) ? body.choices[0] : undefined;
  const message = isRecord(choice) ? choice.message : undefined;
  if (!isRecord(message)) return undefined;
  if (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) return undefined;
  return message.content;
}
