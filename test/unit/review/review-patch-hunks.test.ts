import { describe, expect, it } from "@jest/globals";
import { structuredPatch } from "diff";
import { parsePatch } from "../../../src/review/patch-hunks.ts";

const sorted = (s: ReadonlySet<number>) => [...s].sort((a, b) => a - b);

describe("parsePatch", () => {
  it("reads added, context and deleted lines of several hunks", () => {
    const patch = [
      "@@ -1,3 +1,4 @@",
      " a",
      "-b",
      "+B",
      "+B2",
      " c",
      "@@ -10,2 +11,2 @@ function f() {",
      " x",
      "-y",
      "+Y",
    ].join("\n");
    const hunks = parsePatch(patch);
    expect(hunks).toHaveLength(2);
    expect(hunks[0]).toMatchObject({ oldStart: 1, oldLines: 3, newStart: 1, newLines: 4 });
    expect(sorted(hunks[0]!.rightLines)).toEqual([1, 2, 3, 4]);
    expect(sorted(hunks[0]!.addedLines)).toEqual([2, 3]);
    expect(sorted(hunks[0]!.leftLines)).toEqual([1, 2, 3]);
    expect(sorted(hunks[1]!.rightLines)).toEqual([11, 12]);
    expect(sorted(hunks[1]!.addedLines)).toEqual([12]);
    expect(hunks[1]!.rightText.get(12)).toBe("Y");
  });

  it.each([
    [
      "no newline marker after the last line",
      "@@ -1 +1 @@\n-old\n\\ No newline at end of file\n+new\n\\ No newline at end of file",
      [1],
    ],
    ["a new file (empty old range)", "@@ -0,0 +1,2 @@\n+one\n+two\n", [1, 2]],
    ["a deleted file (empty new range)", "@@ -1,2 +0,0 @@\n-one\n-two", []],
    ["CRLF content (\\r stays content)", "@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r", [1, 2]],
    ["an empty context line with its space stripped", "@@ -1,3 +1,3 @@\n a\n\n-b\n+c", [1, 2, 3]],
    ["omitted counts meaning one line", "@@ -5 +5 @@\n-x\n+y", [5]],
  ])("handles %s", (_name, patch, right) => {
    const hunks = parsePatch(patch);
    expect(hunks).toHaveLength(1);
    expect(sorted(hunks[0]!.rightLines)).toEqual(right);
  });

  it("keeps the text of CRLF lines with their carriage return", () => {
    expect(parsePatch("@@ -1 +1 @@\n-a\r\n+b\r")[0]!.rightText.get(1)).toBe("b\r");
  });

  it.each([
    ["empty text", ""],
    ["a body line before any header", "+x\n@@ -1 +1 @@\n-a\n+b"],
    ["a header that promises more lines than follow", "@@ -1,3 +1,3 @@\n a\n-b\n+c"],
    ["more lines than the header says", "@@ -1 +1 @@\n-a\n+b\n+c"],
    ["an unknown line prefix", "@@ -1,2 +1,2 @@\n a\n*b"],
    ["a garbled header", "@@ -x +1 @@\n+a"],
  ])("returns [] for %s without throwing", (_name, patch) => {
    expect(parsePatch(patch)).toEqual([]);
  });

  it("tolerates git's extended headers before the first hunk", () => {
    const patch = "diff --git a/f b/f\nindex 1..2 100644\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b";
    expect(sorted(parsePatch(patch)[0]!.addedLines)).toEqual([1]);
  });
});

describe("parsePatch against jsdiff (oracle)", () => {
  // A small deterministic generator, so every run checks the same 200 file pairs.
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const file = (n: number) => Array.from({ length: n }, () => `l${Math.floor(next() * 6)}`);

  it("finds the same hunks and RIGHT lines as jsdiff's structuredPatch", () => {
    for (let i = 0; i < 200; i++) {
      const before = file(1 + Math.floor(next() * 30));
      const after = before.flatMap((line) => (next() < 0.15 ? [] : next() < 0.15 ? [line, "new"] : [line]));
      const patch = structuredPatch("a", "b", `${before.join("\n")}\n`, `${after.join("\n")}\n`, "", "", {
        context: 3,
      });
      const text = patch.hunks
        .map((h) =>
          [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, ...h.lines].join("\n"),
        )
        .join("\n");
      const parsed = parsePatch(text);
      expect(parsed.map((h) => [h.newStart, h.newLines])).toEqual(
        patch.hunks.map((h) => [h.newStart, h.newLines]),
      );
      parsed.forEach((hunk, k) => {
        const expected: number[] = [];
        let line = patch.hunks[k]!.newStart;
        for (const l of patch.hunks[k]!.lines)
          if (l.startsWith("+") || l.startsWith(" ")) expected.push(line++);
        expect(sorted(hunk.rightLines)).toEqual(expected);
        const afterLines = `${after.join("\n")}\n`.split("\n");
        for (const n of expected) expect(hunk.rightText.get(n)).toBe(afterLines[n - 1]);
      });
    }
  });
});
