import { readFileSync } from "node:fs";
import { describe, expect, it } from "@jest/globals";
import { createToolRegistry, TOOL_SCHEMAS } from "../../../src/tools/registry.ts";
import { TOOL_NAMES } from "../../../src/tools/types.ts";
import { memoryRepository } from "../../support/memory-repository.ts";

const seed = JSON.parse(
  readFileSync(new URL("../../../fixtures/seed-tool-schemas.json", import.meta.url), "utf8"),
);

describe("TOOL_SCHEMAS", () => {
  it("are exactly the protocol's four schemas, generated from the valibot argument schemas", () => {
    // Round-trip through JSON: what goes on the wire, with no undefined keys hiding anywhere.
    expect(JSON.parse(JSON.stringify(TOOL_SCHEMAS))).toStrictEqual(seed);
  });

  it("lists the tools in TOOL_NAMES order and the registry advertises the same array", () => {
    expect(TOOL_SCHEMAS.map((schema) => schema.function.name)).toEqual([...TOOL_NAMES]);
    const registry = createToolRegistry(memoryRepository({ head: {} }));
    expect(registry.schemas).toBe(TOOL_SCHEMAS);
    expect(registry.isToolName("read_repository_file")).toBe(true);
    expect(registry.isToolName("run_shell")).toBe(false);
  });
});

describe("parseArguments", () => {
  const registry = createToolRegistry(memoryRepository({ head: {} }));

  it("applies the protocol's defaults", () => {
    expect(registry.parseArguments("list_repository_files", {})).toEqual({
      ok: true,
      args: { path: "", limit: 100, cursor: null },
    });
    expect(registry.parseArguments("read_repository_file", { path: "a" })).toEqual({
      ok: true,
      args: { path: "a", start_line: 1 },
    });
    expect(registry.parseArguments("search_repository", { query: "x" })).toEqual({
      ok: true,
      args: { query: "x", path: "", limit: 50 },
    });
    expect(registry.parseArguments("inspect_git_diff", {})).toEqual({
      ok: true,
      args: { paths: [], max_bytes: 65536 },
    });
  });

  it.each([
    [
      "read_repository_file",
      { path: "src/app.py", command: "pytest" },
      'command: Invalid key: Expected never but received "command"',
    ],
    ["read_repository_file", {}, "path: Invalid key"],
    ["read_repository_file", { path: 3 }, "path: Invalid type: Expected string but received 3"],
    [
      "read_repository_file",
      { path: "a", start_line: 0 },
      "start_line: Invalid value: Expected >=1 but received 0",
    ],
    ["read_repository_file", { path: "a", start_line: 1.5 }, "start_line: Invalid integer"],
    ["read_repository_file", { path: "a", end_line: "9" }, "end_line: Invalid type"],
    ["list_repository_files", { limit: 201 }, "limit: Invalid value: Expected <=200 but received 201"],
    ["list_repository_files", { cursor: 7 }, "cursor: Invalid type"],
    ["search_repository", { query: "" }, "query: Invalid length"],
    [
      "search_repository",
      { query: "x".repeat(513) },
      "query: Invalid length: Expected <=512 but received 513",
    ],
    ["search_repository", { query: "x", limit: 101 }, "limit: Invalid value: Expected <=100"],
    ["inspect_git_diff", { paths: "src" }, "paths: Invalid type: Expected Array"],
    ["inspect_git_diff", { paths: Array(51).fill("a") }, "paths: Invalid length: Expected <=50"],
    ["inspect_git_diff", { max_bytes: 131073 }, "max_bytes: Invalid value: Expected <=131072"],
    ["inspect_git_diff", [], "Invalid type: Expected Object but received Array"],
    ["list_repository_files", null, "Invalid type: Expected Object but received null"],
  ] as const)("%s rejects bad arguments (%#)", (name, raw, message) => {
    const parsed = registry.parseArguments(name, raw);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain(message);
  });
});
