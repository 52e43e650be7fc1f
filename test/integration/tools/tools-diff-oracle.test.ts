// inspect_git_diff against native `git diff` as the oracle, on a repository built with native
// git and opened the way Loupe opens it (isomorphic-git over .git, no checkout). git's default
// rename detection (`-M`, 50 %) is what GitHub shows, and what the tool shows.

import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { changesOf } from "../../../src/diff/changes.ts";
import { createToolRegistry } from "../../../src/tools/registry.ts";
import { openLocalRepository } from "../../../src/workspace/open-local.ts";
import type { Workspace } from "../../../src/workspace/types.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";

const numbered = (from: number, to: number, text = "line") =>
  Array.from({ length: to - from + 1 }, (_, i) => `${text} ${from + i}\n`).join("");

let repo: FixtureRepo;
let workspace: Workspace;

function buildRepository(): FixtureRepo {
  const fixture = createRepo();
  const link = (target: string, name: string) => {
    fs.rmSync(path.join(fixture.dir, name), { force: true });
    fs.symlinkSync(target, path.join(fixture.dir, name));
  };
  fixture.write("modify.txt", numbered(1, 40));
  fixture.write(
    "src/func.c",
    `int helper(void)\n{\n${numbered(1, 12, "  stmt")}}\n\nstatic int main_loop(int argc)\n{\n${numbered(1, 20, "  body")}}\n`,
  );
  fixture.write("delete.txt", "going away\nsoon\n");
  fixture.write("empty-deleted.txt", "");
  fixture.write("rename-src.txt", "this content moves unchanged\n");
  fixture.write("rename-edit.txt", numbered(1, 30, "moved line"));
  fixture.write("lib/util.sh", `#!/bin/sh\n${numbered(1, 12, "echo")}`);
  fixture.write("mode.sh", "#!/bin/sh\necho hi\n");
  fixture.write("mode-and-content.sh", "#!/bin/sh\necho one\n");
  fixture.write("bin.dat", Buffer.from([0x89, 0x50, 0x00, 0x01, 0x02, 0x0a]));
  fixture.write("crlf.txt", "alpha\r\nbeta\r\ngamma\r\n");
  fixture.write("nonl.txt", "first\nlast without newline");
  fixture.write("latin1.txt", Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x6f, 0x6b, 0x0a]));
  fixture.write("typechange", "a regular file\n");
  link("modify.txt", "link");
  fixture.commit("base");

  fixture.branch("feature");
  fixture.write("modify.txt", numbered(1, 40).replace("line 5\n", "line five\n").replace("line 33\n", ""));
  fixture.write(
    "src/func.c",
    `int helper(void)\n{\n${numbered(1, 12, "  stmt")}}\n\nstatic int main_loop(int argc)\n{\n${numbered(1, 20, "  body").replace("  body 15\n", "  body fifteen\n")}}\n`,
  );
  fixture.remove("delete.txt");
  fixture.remove("empty-deleted.txt");
  fixture.remove("rename-src.txt");
  fixture.write("moved/renamed.txt", "this content moves unchanged\n");
  // Renamed with edits: paired by similarity, shown as hunks under `rename from/to`.
  fixture.remove("rename-edit.txt");
  fixture.write(
    "relocated/edited.txt",
    numbered(1, 30, "moved line")
      .replace("moved line 7\n", "moved line seven\n")
      .replace("moved line 29\n", ""),
  );
  fixture.remove("lib/util.sh");
  fixture.write("bin/util.sh", `#!/bin/sh\n${numbered(1, 12, "echo")}echo added\n`);
  fixture.chmod("bin/util.sh", 0o755);
  fixture.chmod("mode.sh", 0o755);
  fixture.write("mode-and-content.sh", "#!/bin/sh\necho two\n");
  fixture.chmod("mode-and-content.sh", 0o755);
  fixture.write("bin.dat", Buffer.from([0x89, 0x50, 0x00, 0x01, 0x03, 0x0a]));
  fixture.write("crlf.txt", "alpha\r\nBETA\r\ngamma\r\n");
  fixture.write("nonl.txt", "first\nlast still without newline");
  fixture.write("latin1.txt", Buffer.from([0x63, 0x61, 0x66, 0xe8, 0x0a, 0x6f, 0x6b, 0x0a]));
  link("elsewhere", "typechange");
  link("nonl.txt", "link");
  fixture.write("added.txt", "brand new\nfile\n");
  fixture.write("added-empty.txt", "");
  fixture.write("added.bin", Buffer.from([0x00, 0x00, 0xff]));
  fixture.write("ünï côde.txt", "quoted path\n");
  fixture.git("add", "-A");
  fixture.git("update-index", "--add", "--cacheinfo", `160000,${"ab".repeat(20)},vendor/sub`);
  fixture.git("commit", "--quiet", "--no-verify", "-m", "feature");

  // main moves on after the branch point: the diff must be merge-base → head, not main → head.
  fixture.checkout("main");
  fixture.write("main-only.txt", "only on main\n");
  fixture.write("modify.txt", `${numbered(1, 40)}main tail\n`);
  fixture.commit("main moves");
  return fixture;
}

beforeAll(async () => {
  repo = buildRepository();
  workspace = await openLocalRepository({ dir: repo.dir, base: "main", head: "feature" });
});

afterAll(async () => {
  await workspace?.dispose();
  repo?.dispose();
});

const STATUS_LETTERS: Record<string, string> = {
  added: "A",
  modified: "M",
  deleted: "D",
  mode_changed: "M",
  type_changed: "T",
};
const statusLetter = (status: string, similarity?: number) =>
  status === "renamed" ? `R${String(similarity).padStart(3, "0")}` : STATUS_LETTERS[status]!;

async function toolDiff(args: Record<string, unknown> = {}) {
  const registry = createToolRegistry(workspace);
  const parsed = registry.parseArguments("inspect_git_diff", { max_bytes: 131072, ...args });
  if (!parsed.ok) throw new Error(parsed.message);
  const execution = await registry.execute("inspect_git_diff", parsed.args);
  return JSON.parse(execution.content);
}

/** Per file (keyed by its `diff --git` line), the added and deleted line texts, sorted. */
function changedLines(diff: string): Map<string, { added: string[]; deleted: string[] }> {
  const files = new Map<string, { added: string[]; deleted: string[] }>();
  let current: { added: string[]; deleted: string[] } | undefined;
  let inHunk = false;
  for (const line of diff.split("\n")) {
    if (line.startsWith("diff --git ")) {
      current = files.get(line) ?? { added: [], deleted: [] };
      files.set(line, current);
      inHunk = false;
    } else if (line.startsWith("@@ ")) inHunk = true;
    else if (inHunk && line.startsWith("+")) current!.added.push(line.slice(1));
    else if (inHunk && line.startsWith("-")) current!.deleted.push(line.slice(1));
  }
  for (const value of files.values()) {
    value.added.sort();
    value.deleted.sort();
  }
  return files;
}

describe("inspect_git_diff against native git diff", () => {
  it("reports the same changed files and statuses as git diff -M --name-status", async () => {
    const oracle = repo
      .git("diff", "-M", "--name-status", "main...feature")
      .split("\n")
      .map((line) => line.split("\t"));
    const ours = (await changesOf(workspace)).map((change) => [
      statusLetter(change.status, change.similarity),
      ...(change.previousPath === undefined ? [] : [change.previousPath]),
      change.path,
    ]);
    // git quotes the non-ASCII path in --name-status too; compare unquoted.
    const unquote = (p: string) =>
      p.startsWith('"')
        ? Buffer.from(
            JSON.parse(p.replace(/\\(\d{3})/g, (_, o) => `\\u00${parseInt(o, 8).toString(16)}`)),
            "latin1",
          ).toString("utf8")
        : p;
    expect(ours).toEqual(oracle.map((row) => row.map((cell, index) => (index === 0 ? cell : unquote(cell)))));
    expect(ours.map((row) => row[0])).toEqual(expect.arrayContaining(["A", "M", "D", "R100", "R093", "T"]));
  });

  it("marks exactly the lines git marks, file by file", async () => {
    const result = await toolDiff();
    expect(result).toMatchObject({ ok: true, truncated: false, files_truncated: false });
    const oracle = repo.git("diff", "-M", "main...feature");
    expect(changedLines(result.diff)).toEqual(changedLines(oracle));
  });

  it("produces byte-for-byte the text of git diff on this repository", async () => {
    const result = await toolDiff();
    const oracle = repo.git("diff", "-M", "main...feature");
    expect(result.diff).toBe(`${oracle}\n`);
    // The fixture exercises git's function-context heading, quoting, type changes and submodules.
    expect(oracle).toMatch(/^@@ -\d+,7 \+\d+,7 @@ static int main_loop\(int argc\)$/m);
    expect(oracle).toContain('"b/\\303\\274n\\303\\257 c\\303\\264de.txt"\t');
    expect(oracle).toContain("+Subproject commit");
    expect(oracle).toContain(
      "similarity index 93%\nrename from rename-edit.txt\nrename to relocated/edited.txt\n",
    );
    expect(oracle).toMatch(
      /old mode 100644\nnew mode 100755\nsimilarity index \d+%\nrename from lib\/util.sh/,
    );
    expect(result.base_sha).toBe(repo.revParse("main~1"));
    expect(result.head_sha).toBe(repo.revParse("feature"));
  });

  it("narrows to paths like git diff -- <paths>", async () => {
    for (const paths of [["modify.txt"], ["src"], ["src", "crlf.txt"], ["src/func.c"], ["nothing-here"]]) {
      const result = await toolDiff({ paths });
      const oracle = repo.git("diff", "-M", "main...feature", "--", ...paths);
      expect(result.diff).toBe(oracle === "" ? "" : `${oracle}\n`);
    }
  });

  it.each([["moved"], ["rename-src.txt"], ["moved/renamed.txt"]])(
    "keeps a rename whole when %j names either side",
    async (filter) => {
      // git's pathspec filters before rename detection, so it would show half of the pair; a
      // reviewer asking about either name wants the rename itself.
      const result = await toolDiff({ paths: [filter] });
      expect(result.files).toEqual([
        { path: "moved/renamed.txt", status: "renamed", previous_path: "rename-src.txt", similarity: 100 },
      ]);
      const whole = changedLines(repo.git("diff", "-M", "main...feature"));
      expect(result.diff).toBe(
        "diff --git a/rename-src.txt b/moved/renamed.txt\nsimilarity index 100%\nrename from rename-src.txt\nrename to moved/renamed.txt\n",
      );
      expect(whole.has("diff --git a/rename-src.txt b/moved/renamed.txt")).toBe(true);
    },
  );

  it("cuts at a line boundary within max_bytes and says truncated", async () => {
    const full = await toolDiff();
    const result = await toolDiff({ max_bytes: 700 });
    expect(result.truncated).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(result.diff)) - 2).toBeLessThanOrEqual(700);
    expect(result.diff.endsWith("\n")).toBe(true);
    expect(full.diff.startsWith(result.diff)).toBe(true);
    expect(result.files).toEqual(full.files);
  });
});
