// Runs one validated round's calls in call order and builds their tool messages. Tool-level
// failures ({ok:false}) are ordinary results that go back to the model.

import type { ToolRegistry } from "../tools/types.ts";
import type { ChatMessage } from "./provider.ts";
import { traceToolCall } from "./trace.ts";
import type { TraceToolCall } from "./types.ts";
import type { ValidCall } from "./validate-turn.ts";

export interface RoundExecution {
  readonly messages: readonly ChatMessage[];
  readonly trace: readonly TraceToolCall[];
  readonly contentBytes: number;
}

const encoder = new TextEncoder();

export async function runTools(
  calls: readonly ValidCall[],
  tools: ToolRegistry,
  signal: AbortSignal,
  previewBytes: number,
): Promise<RoundExecution | "cancelled"> {
  const messages: ChatMessage[] = [];
  const trace: TraceToolCall[] = [];
  let contentBytes = 0;
  for (const call of calls) {
    if (signal.aborted) return "cancelled";
    let execution: Awaited<ReturnType<ToolRegistry["execute"]>>;
    try {
      execution = await tools.execute(call.name, call.args, signal);
    } catch (error) {
      if (signal.aborted) return "cancelled";
      throw error; // an infrastructure fault of the repository store, not something the model did
    }
    messages.push({ role: "tool", tool_call_id: call.id, content: execution.content });
    trace.push(traceToolCall(call, execution, previewBytes));
    contentBytes += encoder.encode(execution.content).byteLength;
  }
  return { messages, trace, contentBytes };
}
