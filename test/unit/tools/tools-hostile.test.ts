// Every hostile input gets its stable error code (or the correct literal behaviour) and no tool
// throws: each call goes through the registry exactly as the loop makes it.

import { describe, expect, it } from "@jest/globals";
import { createToolRegistry, DEFAULT_TOOL_LIMITS } from "../../../src/tools/registry.ts";
import type { ToolName } from "../../../src/tools/types.ts";
import { hostileRepository } from "../../support/hostile-repository.ts";

const registry = createToolRegistry(hostileRepository());

async function call(name: ToolName, raw: unknown): Promise<Record<string, unknown>> {
  const parsed = registry.parseArguments(name, raw);
  if (!parsed.ok) throw new Error(`arguments rejected: ${parsed.message}`);
  const execution = await registry.execute(name, parsed.args);
  expect(Buffer.byteLength(execution.content)).toBeLessThanOrEqual(192 * 1024);
  const decoded = JSON.parse(execution.content);
  expect(decoded).toEqual(execution.result);
  return decoded;
}

const PATH_RULES: readonly [string, string][] = [
  ["/etc/passwd", "invalid_path"],
  ["C:/Windows/win.ini", "invalid_path"],
  ["\\\\server\\share", "invalid_path"],
  ["src\\app.ts", "invalid_path"],
  ["src/app\0.ts", "invalid_path"],
  ["../outside", "invalid_path"],
  ["src/../../etc", "invalid_path"],
  [".git/config", "invalid_path"],
  [".GIT/config", "invalid_path"],
  ["src//app.ts", "invalid_path"],
  ["link-out-abs", "path_outside_repository"],
  ["link-out-rel", "path_outside_repository"],
  ["dir-link-out", "path_outside_repository"],
  ["dir-link-out/etc/passwd", "path_outside_repository"],
  ["mid/escape", "path_outside_repository"],
  ["git-link", "path_outside_repository"],
  ["loop-a", "symlink_loop"],
  ["broken-link", "path_not_found"],
  ["nope", "path_not_found"],
];

describe("read_repository_file with hostile input", () => {
  it.each([
    ...PATH_RULES,
    ["", "invalid_path"],
    ["src", "path_is_directory"],
    ["src-link", "path_is_directory"],
    ["vendor/sub", "not_a_regular_file"],
    ["big.txt", "file_too_large"],
    ["bin.dat", "binary_file"],
    ["latin1.txt", "binary_file"],
    ["README.md/x", "path_not_found"],
  ])("%j → %s", async (path, code) => {
    const result = await call("read_repository_file", { path });
    expect(result).toEqual({ ok: false, error: { code, message: expect.any(String) } });
  });

  it("follows symlinks that stay inside, in the middle of a path too", async () => {
    expect(
      await call("read_repository_file", { path: "mid/link/util/strings.ts", end_line: 1 }),
    ).toMatchObject({
      ok: true,
      path: "mid/link/util/strings.ts",
      content: "1: export function validate(s: string) {",
    });
    expect(await call("read_repository_file", { path: "readme-link" })).toMatchObject({
      content: "1: hello",
    });
  });

  it("returns at most 400 lines of a 10,000-line file", async () => {
    const result = await call("read_repository_file", {
      path: "long.txt",
      start_line: 9_900,
      end_line: 10_000,
    });
    expect(result).toMatchObject({
      ok: true,
      start_line: 9900,
      end_line: 10000,
      total_lines: 10000,
      truncated: false,
    });
    const first = await call("read_repository_file", { path: "long.txt" });
    expect(first).toMatchObject({ start_line: 1, end_line: 400, total_lines: 10000, truncated: true });
    expect(String(first.content).split("\n")).toHaveLength(400);
  });

  it.each([
    [{ start_line: 10_001 }, "past the end"],
    [{ start_line: 5, end_line: 4 }, "before start_line"],
  ])("refuses the range %j", async (range, fragment) => {
    const result = await call("read_repository_file", { path: "long.txt", ...range });
    expect(result).toEqual({
      ok: false,
      error: { code: "invalid_range", message: expect.stringContaining(fragment) },
    });
  });

  it("keeps the serialized result under 64 KiB when escaping inflates it", async () => {
    const execution = await registry.execute("read_repository_file", { path: "quotes.txt", start_line: 1 });
    expect(Buffer.byteLength(execution.content)).toBeLessThanOrEqual(DEFAULT_TOOL_LIMITS.maxResultBytes);
    expect(execution.result).toMatchObject({ ok: true, truncated: true, total_lines: 400 });
    const end = (execution.result as unknown as { end_line: number }).end_line;
    expect(end).toBeGreaterThan(100);
    expect(end).toBeLessThan(400);
  });

  it("cuts a single line too long for the cap and says so", async () => {
    const execution = await registry.execute("read_repository_file", {
      path: "one-long-line.txt",
      start_line: 1,
    });
    expect(Buffer.byteLength(execution.content)).toBeLessThanOrEqual(DEFAULT_TOOL_LIMITS.maxResultBytes);
    expect(execution.result).toMatchObject({ ok: true, end_line: 1, total_lines: 1, truncated: true });
    expect(String((execution.result as unknown as { content: string }).content)).toMatch(
      /^1: y+ … \[line truncated\]$/,
    );
  });

  it("hides object store faults behind internal_error without leaking paths", async () => {
    const repository = hostileRepository();
    const oid = repository.head.byPath.get("README.md")!.oid;
    const failing = createToolRegistry(hostileRepository({ failingOids: [oid] }));
    const execution = await failing.execute("read_repository_file", { path: "README.md", start_line: 1 });
    expect(execution.result).toEqual({
      ok: false,
      error: { code: "internal_error", message: expect.any(String) },
    });
    expect(execution.content).not.toContain("secret");
  });
});

describe("list_repository_files with hostile input", () => {
  it.each([
    ...PATH_RULES.filter(([path]) => path !== "nope"),
    ["README.md", "not_a_directory"],
    ["nope", "path_not_found"],
  ])("%j → %s", async (path, code) => {
    const result = await call("list_repository_files", { path });
    expect(result).toMatchObject({ ok: false, error: { code } });
  });

  it.each([
    ["../x", ""],
    ["/etc/passwd", ""],
    [".git/config", ""],
    ["src/app.ts", "mid"],
    ["src/missing.ts", "src"],
    ["README.md", "src"],
  ])("refuses the forged cursor %j for %j", async (cursor, path) => {
    const result = await call("list_repository_files", { path, cursor });
    expect(result).toMatchObject({ ok: false, error: { code: "invalid_cursor" } });
  });

  it("lists neither .git, submodules nor symlinks that escape, and never descends into symlinks", async () => {
    const result = await call("list_repository_files", { limit: 200 });
    const files = result.files as string[];
    expect(files).toContain("src-link");
    expect(files).toContain("readme-link");
    expect(files).toContain("mid/link");
    for (const hidden of [".git/config", "vendor/sub", "link-out-abs", "link-out-rel", "dir-link-out"]) {
      expect(files).not.toContain(hidden);
    }
    for (const hidden of ["git-link", "loop-a", "loop-b", "broken-link", "mid/escape"]) {
      expect(files).not.toContain(hidden);
    }
    expect(files.some((file) => file.startsWith("src-link/"))).toBe(false);
    expect(files).toEqual([...files].sort());
    expect(result.truncated).toBe(false);
  });
});

describe("search_repository with hostile input", () => {
  it.each([
    ...PATH_RULES.filter(([path]) => path !== "nope" && path !== "broken-link"),
    ["nope", "path_not_found"],
  ])("path %j → %s", async (path, code) => {
    const result = await call("search_repository", { query: "a", path });
    expect(result).toMatchObject({ ok: false, error: { code } });
  });

  it.each([
    [
      "a.*b",
      [
        ["regex.txt", 1],
        ["run.sh", 2],
        ["src/app.ts", 2],
      ],
    ],
    [
      "(",
      [
        ["regex.txt", 3],
        ["src/app.ts", 2],
        ["src/util/strings.ts", 1],
      ],
    ],
    ["[", [["regex.txt", 4]]],
    ["[remote", []],
    ["token@", []],
    ["xxxxxxxx", []],
    ["PK", []],
    ["caf", []],
  ] as const)(
    "takes %j literally and skips internal, binary, oversized and non-UTF-8 files",
    async (query, expected) => {
      const result = await call("search_repository", { query });
      const matches = (result.matches as { path: string; line: number }[]).map((m) => [m.path, m.line]);
      expect(matches).toEqual(expected);
      expect(result.truncated).toBe(false);
    },
  );

  it("stops at limit with truncated: true", async () => {
    const result = await call("search_repository", { query: "line ", path: "long.txt", limit: 100 });
    expect((result.matches as unknown[]).length).toBe(100);
    expect(result).toMatchObject({ ok: true, path: "long.txt", truncated: true });
  });

  it("bounds excerpts of long lines to 200 characters around the match", async () => {
    const result = await call("search_repository", { query: "yyy", path: "one-long-line.txt" });
    const [match] = result.matches as { excerpt: string }[];
    expect(match!.excerpt.length).toBe(200);
  });
});

describe("inspect_git_diff with hostile input", () => {
  it.each(["../x", ".git", "/abs", "a\\b", "", "a//b"])("refuses the path filter %j", async (path) => {
    const result = await call("inspect_git_diff", { paths: ["README.md", path] });
    expect(result).toEqual({
      ok: false,
      error: { code: "invalid_path", message: expect.stringMatching(/^paths\[1\]: /) },
    });
  });
});

describe("execute without parseArguments", () => {
  it("answers invalid_arguments instead of throwing", async () => {
    const execution = await registry.execute("read_repository_file", { path: 1, extra: true });
    expect(execution.result).toMatchObject({ ok: false, error: { code: "invalid_arguments" } });
  });

  it("answers cancelled for an aborted signal", async () => {
    const execution = await registry.execute("search_repository", { query: "a" }, AbortSignal.abort());
    expect(execution.result).toMatchObject({ ok: false, error: { code: "cancelled" } });
  });
});
