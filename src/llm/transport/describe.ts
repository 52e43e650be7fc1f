// One static sentence on how tool calls travelled, for the check run and `loupe review`'s
// markdown: only set when they were text markers (native calls are the unremarkable case).

import type { LoopResult } from "../types.ts";

const CAUSES = {
  provider_rejected_tools: "the provider refused a request carrying native tools (HTTP 400/422 naming them)",
  marker_calls: "the model answered its first turn with tool call markers in its text",
} as const;

export function describeToolCalls(result: LoopResult): string | null {
  const change = result.tool_call_switch;
  if (change !== undefined) {
    return `Tool calls: ${CAUSES[change.cause]}, so from round ${change.round} Loupe asked for calls written as text markers (REVIEW_TOOL_CALLS=auto).`;
  }
  if (result.tool_call_transport === "text")
    return "Tool calls: written as text markers (REVIEW_TOOL_CALLS=text).";
  return null;
}
