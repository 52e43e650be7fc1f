// What one repository tool is: its name, description, valibot argument schema and a run
// function over the repository view. The registry turns a list of these into ToolRegistry.

import type * as v from "valibot";
import type { RepositoryView } from "../workspace/types.ts";
import type { ToolLimits } from "./limits.ts";
import type { ToolName, ToolResult } from "./types.ts";

export interface ToolContext {
  readonly view: RepositoryView;
  readonly limits: ToolLimits;
  readonly signal?: AbortSignal;
}

export interface ToolDefinition<S extends v.GenericSchema = v.GenericSchema> {
  readonly name: ToolName;
  readonly description: string;
  readonly args: S;
  run(args: v.InferOutput<S>, context: ToolContext): Promise<ToolResult>;
  /** The serialized-size cap of this tool's result; the shared 64 KiB cap when absent. */
  resultCap?(args: v.InferOutput<S>, limits: ToolLimits): number;
}

/** Keeps each tool's argument type precise while the registry holds them side by side. */
export function defineTool<S extends v.GenericSchema>(definition: ToolDefinition<S>): ToolDefinition {
  // The registry only calls run/resultCap with the output of parsing `definition.args`.
  return definition as unknown as ToolDefinition;
}
