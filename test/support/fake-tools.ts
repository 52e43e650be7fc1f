// A small spy registry with the protocol's four tool names and strict argument checks, for loop tests
// that must prove which calls ran (and that none of an invalid round did), plus a tiny in-memory
// RepositoryView so finding paths are checked by the real read rules.

import {
  TOOL_NAMES,
  type ToolExecution,
  type ToolName,
  type ToolRegistry,
  type ToolResult,
  type ToolSchemaForModel,
} from "../../src/tools/types.ts";
import type { CommitSnapshot, RepositoryView, TreeEntry } from "../../src/workspace/types.ts";

const ALLOWED: Record<ToolName, Record<string, string>> = {
  list_repository_files: { path: "string", limit: "number", cursor: "string" },
  read_repository_file: { path: "string", start_line: "number", end_line: "number" },
  search_repository: { query: "string", path: "string", limit: "number" },
  inspect_git_diff: { paths: "object", max_bytes: "number" },
};

export interface SpyRegistry extends ToolRegistry {
  readonly executed: { name: ToolName; args: unknown }[];
}

export function createSpyRegistry(
  answer: (name: ToolName, args: Record<string, unknown>) => ToolResult = (name, args) => ({
    ok: true,
    tool: name,
    ...args,
  }),
): SpyRegistry {
  const executed: { name: ToolName; args: unknown }[] = [];
  const schemas: ToolSchemaForModel[] = TOOL_NAMES.map((name) => ({
    type: "function",
    function: {
      name,
      description: `fake ${name}`,
      parameters: { type: "object", properties: {}, additionalProperties: false },
    },
  }));
  return {
    schemas,
    executed,
    isToolName: (name): name is ToolName => (TOOL_NAMES as readonly string[]).includes(name),
    parseArguments(name, raw) {
      const allowed = ALLOWED[name];
      for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
        if (allowed[key] === undefined) return { ok: false, message: `unknown property ${key}` };
        if (value !== null && typeof value !== allowed[key])
          return { ok: false, message: `wrong type for ${key}` };
      }
      return { ok: true, args: raw };
    },
    async execute(name, args): Promise<ToolExecution> {
      executed.push({ name, args });
      const result = answer(name, args as Record<string, unknown>);
      return { result, content: JSON.stringify(result), durationMs: 0 };
    },
  };
}

/** Files of the head commit; a value {symlink: target} makes a symlink entry. */
export type MemoryFiles = Readonly<Record<string, string | { symlink: string }>>;

export function memoryView(files: MemoryFiles): RepositoryView {
  const blobs = new Map<string, Uint8Array>();
  const entries: TreeEntry[] = Object.entries(files)
    .map(([path, content], index): TreeEntry => {
      const oid = index.toString(16).padStart(40, "0");
      const isLink = typeof content !== "string";
      blobs.set(oid, new TextEncoder().encode(isLink ? content.symlink : content));
      return { path, mode: isLink ? "symlink" : "file", oid };
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const snapshot: CommitSnapshot = {
    commit: "f".repeat(40),
    entries,
    byPath: new Map(entries.map((entry) => [entry.path, entry])),
  };
  return {
    head: snapshot,
    mergeBase: snapshot,
    objects: {
      async readBlob(oid) {
        const blob = blobs.get(oid);
        if (blob === undefined) throw new Error("missing blob");
        return blob;
      },
      async readBlobWithin(oid, maxBytes) {
        const blob = blobs.get(oid);
        if (blob === undefined) throw new Error("missing blob");
        return blob.byteLength > maxBytes ? "too_large" : blob;
      },
      async blobSize(oid) {
        const blob = blobs.get(oid);
        if (blob === undefined) throw new Error("missing blob");
        return blob.byteLength;
      },
    },
  };
}
