// The public trace: protocol metadata plus bounded previews of tool results. Tool content is
// repository data only (repository-relative paths, file text), never keys, headers, local paths
// or provider error bodies, and no preview exceeds its byte bound.

import { previewText } from "../domain/text.ts";
import type { ToolExecution } from "../tools/types.ts";
import type { Envelope } from "./envelope.ts";
import type { TraceToolCall, TraceTurn } from "./types.ts";
import type { ValidCall } from "./validate-turn.ts";

const encoder = new TextEncoder();

export type ProtocolAction =
  | "execute_tools"
  | "final_review"
  /** A budget was reached: this turn was not executed and a final-answer round follows. */
  | "request_final_answer"
  /** The final review failed validation: one repair request naming the failed checks follows. */
  | "request_repair"
  /** Text tool calls: prose without a marker got the one reminder; nothing ran. */
  | "remind_marker"
  /** Auto mode left native calls for text markers (the trace entry carries no provider turn). */
  | "switch_to_text_tool_calls"
  | "terminate";

export function traceToolCall(call: ValidCall, execution: ToolExecution, maxBytes: number): TraceToolCall {
  // The protocol previews what the model reads (a file's numbered content) when there is one.
  const result = execution.result as Record<string, unknown>;
  const source =
    execution.result.ok && typeof result.content === "string" ? result.content : execution.content;
  const preview = previewText(source, maxBytes);
  return {
    id: call.id,
    name: call.name,
    arguments: call.rawArguments,
    ok: execution.result.ok,
    result_preview: preview.text,
    result_bytes: encoder.encode(execution.content).byteLength,
    truncated: preview.truncated,
    duration_ms: Math.round(execution.durationMs),
  };
}

export function traceTurn(
  round: number,
  envelope: Envelope,
  action: ProtocolAction,
  toolCalls: readonly TraceToolCall[] = [],
  validationFailures?: readonly string[],
): TraceTurn {
  return {
    round,
    provider_request_id: envelope.id,
    provider_model: envelope.model,
    finish_reason: envelope.finishReason,
    protocol_action: action,
    usage: envelope.usage,
    tool_calls: toolCalls,
    ...(validationFailures === undefined ? {} : { validation_failures: validationFailures }),
  };
}

/** Auto mode's switch to text markers: its own entry, no provider turn (the round's comes next). */
export function traceSwitch(round: number): TraceTurn {
  const none: Envelope = { id: null, model: null, finishReason: null, usage: null, spend: null };
  return traceTurn(round, none, "switch_to_text_tool_calls");
}
