// The tools' normal behaviour over an in-memory repository: result shapes (the protocol's),
// ranges, paging, literal search scoping and the diff's filters and budget.

import { describe, expect, it } from "@jest/globals";
import { changesOf } from "../../../src/diff/changes.ts";
import { createToolRegistry } from "../../../src/tools/registry.ts";
import type { ToolName } from "../../../src/tools/types.ts";
import { memoryRepository } from "../../support/memory-repository.ts";

const service = Array.from({ length: 212 }, (_, i) =>
  i === 41 ? "    validate_name(widget.name)" : `# ${i + 1}`,
);
service[0] = "from __future__ import annotations";

const repository = memoryRepository({
  mergeBase: {
    "src/widgets/service.py": `${service.slice(0, 200).join("\n")}\n`,
    "docs/old-name.md": "same content\n",
    "tool.sh": "#!/bin/sh\n",
    kind: "a file\n",
  },
  head: {
    "src/widgets/service.py": `${service.join("\n")}\n`,
    "src/widgets/__init__.py": "",
    "src/widgets/crlf.txt": "one\r\ntwo\r\n",
    "docs/new-name.md": "same content\n",
    "tool.sh": { mode: "executable", content: "#!/bin/sh\n" },
    kind: { symlink: "tool.sh" },
    "z.txt": "last\n",
  },
});
const registry = createToolRegistry(repository);

async function call(name: ToolName, raw: unknown): Promise<Record<string, unknown>> {
  const parsed = registry.parseArguments(name, raw);
  if (!parsed.ok) throw new Error(parsed.message);
  return JSON.parse((await registry.execute(name, parsed.args)).content);
}

describe("read_repository_file", () => {
  it("answers in the protocol's shape", async () => {
    const result = await call("read_repository_file", {
      path: "src/widgets/service.py",
      start_line: 1,
      end_line: 180,
    });
    expect(Object.keys(result)).toEqual([
      "ok",
      "path",
      "start_line",
      "end_line",
      "total_lines",
      "content",
      "truncated",
    ]);
    expect(result).toMatchObject({
      ok: true,
      start_line: 1,
      end_line: 180,
      total_lines: 212,
      truncated: true,
    });
    expect(String(result.content).split("\n")[0]).toBe("1: from __future__ import annotations");
    expect(String(result.content).split("\n")[179]).toBe("180: # 180");
  });

  it("clamps end_line to the file, strips the CR of CRLF and reads empty files", async () => {
    expect(await call("read_repository_file", { path: "src/widgets/crlf.txt", end_line: 99 })).toMatchObject({
      end_line: 2,
      total_lines: 2,
      content: "1: one\n2: two",
      truncated: false,
    });
    expect(await call("read_repository_file", { path: "src/widgets/__init__.py" })).toMatchObject({
      ok: true,
      start_line: 1,
      end_line: 0,
      total_lines: 0,
      content: "",
      truncated: false,
    });
  });
});

describe("list_repository_files", () => {
  it("pages through a directory with the cursor and ends with next_cursor null", async () => {
    const all = await call("list_repository_files", {});
    expect(all.files).toEqual([
      "docs/new-name.md",
      "kind",
      "src/widgets/__init__.py",
      "src/widgets/crlf.txt",
      "src/widgets/service.py",
      "tool.sh",
      "z.txt",
    ]);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page += 1) {
      const result = await call("list_repository_files", { limit: 2, cursor });
      seen.push(...(result.files as string[]));
      cursor = result.next_cursor as string | null;
      expect(result.truncated).toBe(cursor !== null);
      if (cursor === null) break;
    }
    expect(seen).toEqual(all.files);
    expect(await call("list_repository_files", { path: "src/widgets/", limit: 1 })).toEqual({
      ok: true,
      path: "src/widgets",
      files: ["src/widgets/__init__.py"],
      truncated: true,
      next_cursor: "src/widgets/__init__.py",
    });
  });
});

describe("search_repository", () => {
  it("answers in the protocol's shape with trimmed excerpts and 1-based lines", async () => {
    expect(await call("search_repository", { query: "validate_name", path: "src", limit: 20 })).toEqual({
      ok: true,
      query: "validate_name",
      path: "src",
      matches: [{ path: "src/widgets/service.py", line: 42, excerpt: "validate_name(widget.name)" }],
      truncated: false,
    });
  });

  it("scopes to one file or directory and is case-sensitive", async () => {
    expect((await call("search_repository", { query: "two", path: "src/widgets/crlf.txt" })).matches).toEqual(
      [{ path: "src/widgets/crlf.txt", line: 2, excerpt: "two" }],
    );
    expect((await call("search_repository", { query: "TWO" })).matches).toEqual([]);
    expect((await call("search_repository", { query: "same", path: "docs" })).matches).toHaveLength(1);
  });
});

describe("inspect_git_diff", () => {
  it("summarises every change and narrows by directory", async () => {
    const result = await call("inspect_git_diff", {});
    expect(result).toMatchObject({
      ok: true,
      base_sha: repository.mergeBase.commit,
      head_sha: repository.head.commit,
      total_files: 7,
      truncated: false,
    });
    expect(result.files).toEqual([
      { path: "docs/new-name.md", status: "renamed", previous_path: "docs/old-name.md", similarity: 100 },
      { path: "kind", status: "type_changed" },
      { path: "src/widgets/__init__.py", status: "added" },
      { path: "src/widgets/crlf.txt", status: "added" },
      { path: "src/widgets/service.py", status: "modified" },
      { path: "tool.sh", status: "mode_changed" },
      { path: "z.txt", status: "added" },
    ]);
    const narrowed = await call("inspect_git_diff", { paths: ["src/widgets", "tool.sh"] });
    expect((narrowed.files as { path: string }[]).map((file) => file.path)).toEqual([
      "src/widgets/__init__.py",
      "src/widgets/crlf.txt",
      "src/widgets/service.py",
      "tool.sh",
    ]);
    expect(narrowed.diff).toContain("diff --git a/tool.sh b/tool.sh\nold mode 100644\nnew mode 100755\n");
    expect(narrowed.diff).toContain("@@ -198,3 +198,15 @@ from __future__ import annotations\n");
    expect((await call("inspect_git_diff", { paths: ["src/widget"] })).files).toEqual([]);
  });

  it("stops at max_bytes on a line boundary", async () => {
    const result = await call("inspect_git_diff", { max_bytes: 100 });
    expect(result.truncated).toBe(true);
    expect(String(result.diff).length).toBeLessThanOrEqual(100);
    expect(String(result.diff)).toMatch(/^(diff --git [^\n]*\n)?/);
    expect(String(result.diff) === "" || String(result.diff).endsWith("\n")).toBe(true);
  });
});

describe("changesOf", () => {
  it("pairs exact renames by blob id, preferring the same file name", async () => {
    const view = memoryRepository({
      mergeBase: { "a/x.txt": "same\n", "b/y.txt": "same\n" },
      head: { "c/y.txt": "same\n", "d/other.txt": "same\n" },
    });
    expect((await changesOf(view)).map((c) => [c.status, c.previousPath, c.path])).toEqual([
      ["renamed", "b/y.txt", "c/y.txt"],
      ["renamed", "a/x.txt", "d/other.txt"],
    ]);
  });
});

describe("inspect_git_diff on many large text files", () => {
  it("counts lines of large files up to 64 MiB per call, then sizes the rest without reading them", async () => {
    const mib = 1024 * 1024;
    const big = (tag: string) => `${tag}\n`.repeat((15 * mib) / (tag.length + 1));
    const many = memoryRepository({
      mergeBase: { "keep.txt": "kept\n" },
      head: Object.fromEntries(["a", "b", "c", "d", "e"].map((name) => [`${name}.txt`, big(name.repeat(3))])),
    });
    const result = JSON.parse(
      (await createToolRegistry(many).execute("inspect_git_diff", { paths: [], max_bytes: 131072 })).content,
    );
    const described = String(result.diff)
      .split("\n")
      .filter((line) => line.includes("too large to show"));
    expect(described).toHaveLength(5);
    // Four files of 15 MiB fit the 64 MiB; the fifth is sized from its headers only.
    expect(
      described.slice(0, 4).every((line) => line.startsWith("Text files") && line.endsWith(" lines)")),
    ).toBe(true);
    expect(described[4]).toBe(
      `Files /dev/null and b/e.txt differ: too large to show (over 1048576 bytes; b/e.txt: ${15 * mib} bytes, not read)`,
    );
    // The budget is per call: the next call counts again.
    const again = JSON.parse(
      (await createToolRegistry(many).execute("inspect_git_diff", { paths: ["a.txt"], max_bytes: 131072 }))
        .content,
    );
    expect(again.diff).toContain(`b/a.txt: ${15 * mib} bytes, ${(15 * mib) / 4} lines)`);
  });
});
