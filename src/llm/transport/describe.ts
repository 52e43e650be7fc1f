// One static sentence on how tool calls travelled, for the check run and `loupe review`'s
// markdown: only set when they were text markers (native calls are the unremarkable case).

import { ENVIRONMENT_NAMES, type SettingNames } from "../../domain/setting-names.ts";
import type { LoopResult } from "../types.ts";

const CAUSES = {
  provider_rejected_tools: "the provider refused a request carrying native tools (HTTP 400/422 naming them)",
  marker_calls: "the model answered its first turn with tool call markers in its text",
} as const;

export function describeToolCalls(
  result: LoopResult,
  names: SettingNames = ENVIRONMENT_NAMES,
): string | null {
  const change = result.tool_call_switch;
  const mode = (value: string) => {
    const name = names("REVIEW_TOOL_CALLS");
    return name === null ? "" : ` (${name}=${value})`;
  };
  if (change !== undefined) {
    return `Tool calls: ${CAUSES[change.cause]}, so from round ${change.round} Loupe asked for calls written as text markers${mode("auto")}.`;
  }
  if (result.tool_call_transport === "text") return `Tool calls: written as text markers${mode("text")}.`;
  return null;
}
