// The public trace: protocol metadata plus bounded previews of tool results. Tool content is
// repository data only (repository-relative paths, file text), never keys, headers, local paths
// or provider error bodies, and no preview exceeds its byte bound.

import { previewText } from "../domain/text.ts";
import type { ToolExecution } from "../tools/types.ts";
import type { RoundRecord } from "./loop-rounds.ts";
import type { TraceToolCall, TraceTurn } from "./types.ts";
import type { ValidCall } from "./validate-turn.ts";

const encoder = new TextEncoder();

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

/** The rounds as the protocol's trace: each model turn, and auto mode's switch before its round. */
export function traceOf(records: readonly RoundRecord[]): TraceTurn[] {
  let round = 0;
  return records.flatMap((record) => {
    const switched = record.switched ? [{ ...NO_TURN, round: round + 1 }] : [];
    if (record.action !== "refused") round++;
    const { turn, finishReason, action, usage } = record;
    if (turn === undefined) return switched;
    const failures = turn.failures === undefined ? {} : { validation_failures: turn.failures };
    const ids = { provider_request_id: turn.id, provider_model: turn.model, finish_reason: finishReason };
    return [
      ...switched,
      { round, ...ids, protocol_action: action, usage, tool_calls: turn.calls, ...failures },
    ];
  });
}

/** Auto mode's switch to text markers: an entry of its own, with no provider turn. */
const NO_TURN = {
  round: 0,
  provider_request_id: null,
  provider_model: null,
  finish_reason: null,
  protocol_action: "switch_to_text_tool_calls",
  usage: null,
  tool_calls: [],
} as const satisfies TraceTurn;
