// Text files over the diff's 1 MiB read limit: inspect_git_diff must not call them binary (git
// shows them in full, and their text is what the pull request changes). It says they are too
// large to show, with sizes and line counts; binary files keep git's `Binary files … differ`.
// Sizes and kinds are checked against native git (`cat-file -s`, `diff --numstat`).

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createToolRegistry } from "../../../src/tools/registry.ts";
import { openLocalRepository } from "../../../src/workspace/open-local.ts";
import type { Workspace } from "../../../src/workspace/types.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";

const lines = (count: number, tag: string) =>
  Array.from({ length: count }, (_, i) => `${tag} line ${i} ${"x".repeat(40)}\n`).join("");

let repo: FixtureRepo;
let workspace: Workspace;
let diff: string;

beforeAll(async () => {
  repo = createRepo();
  repo.write("big.txt", lines(30_000, "old")); // about 1.5 MB
  repo.write("grows.txt", lines(15_000, "grow")); // under 1 MiB, then over
  repo.write("big.bin", Buffer.concat([Buffer.from([0, 1, 2]), Buffer.alloc(1_200_000, 7)]));
  repo.write("small.txt", "a\nb\n");
  repo.commit("base");
  repo.write(
    "big.txt",
    `${lines(30_000, "old").replace("old line 77 ", "new line 77 ")}last line without newline`,
  );
  repo.write("grows.txt", lines(25_000, "grow"));
  repo.write("big.bin", Buffer.concat([Buffer.from([0, 1, 3]), Buffer.alloc(1_200_000, 7)]));
  repo.write("huge.log", "y".repeat(17 * 1024 * 1024)); // over the 16 MiB that are counted
  repo.write("small.txt", "a\nB\n");
  repo.commit("head");
  workspace = await openLocalRepository({ dir: repo.dir, base: "HEAD~1", head: "HEAD" });
  const registry = createToolRegistry(workspace);
  diff = JSON.parse((await registry.execute("inspect_git_diff", { max_bytes: 131072 })).content).diff;
});

afterAll(async () => {
  await workspace?.dispose();
  repo?.dispose();
});

const size = (rev: string) => Number(repo.git("cat-file", "-s", rev));

describe("a large text file in inspect_git_diff", () => {
  it("is too large to show, with both sides' sizes and line counts, not binary", () => {
    // git itself diffs it as text: numstat counts its lines (binary files show "-").
    expect(repo.git("diff", "--numstat", "HEAD~1", "HEAD", "--", "big.txt")).toMatch(/^2\t1\tbig.txt$/);
    expect(diff).toContain(
      "diff --git a/big.txt b/big.txt\nindex " +
        `${repo.revParse("HEAD~1:big.txt").slice(0, 7)}..${repo.revParse("HEAD:big.txt").slice(0, 7)} 100644\n` +
        "Text files a/big.txt and b/big.txt differ: too large to show (over 1048576 bytes; " +
        `a/big.txt: ${size("HEAD~1:big.txt")} bytes, 30000 lines; b/big.txt: ${size("HEAD:big.txt")} bytes, 30001 lines)\n`,
    );
  });

  it("describes a file that grew past the limit from both sides", () => {
    expect(size("HEAD~1:grows.txt")).toBeLessThan(1024 * 1024);
    expect(diff).toContain(
      `Text files a/grows.txt and b/grows.txt differ: too large to show (over 1048576 bytes; a/grows.txt: ${size("HEAD~1:grows.txt")} bytes, 15000 lines; b/grows.txt: ${size("HEAD:grows.txt")} bytes, 25000 lines)`,
    );
  });

  it("sizes a file over 16 MiB from its headers and says it was not read", () => {
    expect(diff).toContain(
      `Files /dev/null and b/huge.log differ: too large to show (over 1048576 bytes; b/huge.log: ${17 * 1024 * 1024} bytes, not read)`,
    );
  });

  it("keeps git's line for a large binary file, and diffs small files as before", () => {
    expect(repo.git("diff", "--numstat", "HEAD~1", "HEAD", "--", "big.bin")).toMatch(/^-\t-\tbig.bin$/);
    expect(diff).toContain("Binary files a/big.bin and b/big.bin differ\n");
    expect(diff).toContain("@@ -1,2 +1,2 @@\n a\n-b\n+B\n");
  });
});
