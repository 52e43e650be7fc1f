// Counts every tool call the loop runs, by tool and outcome, without the loop knowing: a thin
// wrapper around the registry's execute (a call that throws is an infrastructure fault and is
// counted as not ok before it propagates).

import type { ToolName, ToolRegistry } from "../tools/types.ts";
import type { Metrics } from "./metrics.ts";

export function observeToolCalls(tools: ToolRegistry, metrics: Metrics): ToolRegistry {
  return {
    schemas: tools.schemas,
    isToolName: (name): name is ToolName => tools.isToolName(name),
    parseArguments: (name, raw) => tools.parseArguments(name, raw),
    async execute(name, args, signal) {
      try {
        const execution = await tools.execute(name, args, signal);
        metrics.toolCall(name, execution.result.ok);
        return execution;
      } catch (error) {
        metrics.toolCall(name, false);
        throw error;
      }
    },
  };
}
