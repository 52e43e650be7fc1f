// The fake GitHub's per-file diff limit, as GitHub lists a pull request's files: past 20,000
// changed lines or 1 MB of patch the file keeps its counts but loses its patch.

import { expect, it } from "@jest/globals";
import {
  type CompareFile,
  FILE_DIFF_BYTES,
  FILE_DIFF_LINES,
  withinFileDiffLimit,
} from "../../support/fake-github-compare.ts";

function added(lines: number, width: number): CompareFile {
  const body = Array.from({ length: lines }, () => `+${"x".repeat(width)}`).join("\n");
  const patch = `@@ -0,0 +1,${lines} @@\n${body}`;
  return {
    sha: null,
    filename: "data.json",
    status: "added",
    additions: lines,
    deletions: 0,
    changes: lines,
    patch,
  };
}

it("keeps a patch within both limits", () => {
  const file = added(FILE_DIFF_LINES, 10);
  expect(withinFileDiffLimit(file)).toBe(file);
});

it("drops the patch past the line limit or the byte limit, keeping the counts", () => {
  for (const file of [added(FILE_DIFF_LINES + 1, 1), added(1000, Math.ceil(FILE_DIFF_BYTES / 1000))]) {
    const listed = withinFileDiffLimit(file);
    expect(listed).not.toHaveProperty("patch");
    expect(listed).toMatchObject({ additions: file.additions, changes: file.changes, filename: "data.json" });
  }
});
