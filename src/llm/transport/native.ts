// Native function calls: the request carries all four tool schemas and tool_choice ("none" in the
// final-answer round, tools still listed); calls come back in tool_calls and their results go
// back as tool messages. In auto mode the system message also carries the text catalog.

import type { ToolSchemaForModel } from "../../tools/types.ts";
import { validateTurn } from "../validate-turn.ts";
import type { TurnTransport } from "./types.ts";
import { withSystemSection } from "./types.ts";

export function createNativeTransport(options: {
  readonly model: string;
  readonly schemas: readonly ToolSchemaForModel[];
  /** The text catalog offered as a fallback (auto mode), or null. */
  readonly fallbackCatalog: string | null;
}): TurnTransport {
  return {
    kind: "native",
    request: (history, finalRound) => ({
      model: options.model,
      messages: withSystemSection(history, options.fallbackCatalog),
      tools: options.schemas,
      tool_choice: finalRound ? "none" : "auto",
    }),
    read: validateTurn,
    results: (_calls, toolMessages) => [...toolMessages],
  };
}
