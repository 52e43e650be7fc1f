// name → (schema, run) for the four read-only repository tools, bound to one repository view.
// execute() never throws: unexpected faults become `internal_error` (without their message,
// which may carry local paths), and every result is serialized under its size cap.

import type { RepositoryView } from "../workspace/types.ts";
import type { ToolContext, ToolDefinition } from "./definition.ts";
import { inspectGitDiff } from "./inspect-git-diff.ts";
import { resolveLimits, type ToolLimits } from "./limits.ts";
import { listRepositoryFiles } from "./list-repository-files.ts";
import { parseWith, toModelParameters } from "./model-schema.ts";
import { readRepositoryFile } from "./read-repository-file.ts";
import { failure, serializeResult } from "./result.ts";
import { searchRepository } from "./search-repository.ts";
import {
  TOOL_NAMES,
  type ToolExecution,
  type ToolName,
  type ToolRegistry,
  type ToolSchemaForModel,
} from "./types.ts";

export { DEFAULT_TOOL_LIMITS, type ToolLimits } from "./limits.ts";

/** In the protocol's order, which is also the order of `tools` in every request. */
const DEFINITIONS: readonly ToolDefinition[] = [
  listRepositoryFiles,
  readRepositoryFile,
  searchRepository,
  inspectGitDiff,
];
const BY_NAME = new Map<string, ToolDefinition>(
  DEFINITIONS.map((definition) => [definition.name, definition]),
);

export const TOOL_SCHEMAS: readonly ToolSchemaForModel[] = DEFINITIONS.map((definition) => ({
  type: "function",
  function: {
    name: definition.name,
    description: definition.description,
    parameters: toModelParameters(definition.args),
  },
}));

export function isToolName(name: string): name is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(name);
}

function definitionOf(name: ToolName): ToolDefinition {
  const definition = BY_NAME.get(name);
  if (definition === undefined) throw new Error(`tool ${name} has no definition`);
  return definition;
}

/** Strict argument validation without a repository (the CLI checks `--args` before opening one). */
export function parseToolArguments(name: ToolName, raw: unknown): ReturnType<ToolRegistry["parseArguments"]> {
  return parseWith(definitionOf(name).args, raw);
}

export function createToolRegistry(view: RepositoryView, limits?: Partial<ToolLimits>): ToolRegistry {
  const resolved = resolveLimits(limits);
  return {
    schemas: TOOL_SCHEMAS,
    isToolName,
    parseArguments: parseToolArguments,
    async execute(name, args, signal): Promise<ToolExecution> {
      const started = performance.now();
      const definition = definitionOf(name);
      // Re-validated so that a caller that skipped parseArguments still gets a tool-level answer.
      const parsed = parseWith(definition.args, args);
      let cap = resolved.maxResultBytes;
      let result: ToolExecution["result"];
      if (!parsed.ok) {
        result = failure("invalid_arguments", parsed.message);
      } else if (signal?.aborted) {
        result = failure("cancelled", "The call was cancelled.");
      } else {
        const context: ToolContext =
          signal === undefined ? { view, limits: resolved } : { view, limits: resolved, signal };
        cap = definition.resultCap?.(parsed.args, resolved) ?? cap;
        try {
          result = await definition.run(parsed.args, context);
        } catch {
          result = failure("internal_error", "The tool failed unexpectedly.");
        }
      }
      const serialized = serializeResult(result, cap);
      return { ...serialized, durationMs: performance.now() - started };
    },
  };
}
