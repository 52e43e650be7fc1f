// The last-resort clamp before the Checks API: within GitHub's limits, on a code point, and never
// inside a construct whose rest would then be read as live Markdown (judged by GFM parsers).

import { describe, expect, it } from "@jest/globals";
import { clampOutput, clampText } from "../../../../src/forges/github/check-run.ts";
import { serializeBlocks } from "../../../../src/review/markdown-serialize.ts";
import { code, codeBlock, paragraph, text } from "../../../../src/review/markdown-tree.ts";
import { allProblems, cmarkJudges, cmarkOracle, micromarkOracle } from "../../../support/gfm-oracle.ts";

const NONE = { linkPrefix: null, markers: [] };

const isWellFormed = (text: string): boolean => text.isWellFormed();

describe("clamping check-run texts to GitHub's limits", () => {
  it("never cuts a surrogate pair in half, whatever the offset", () => {
    for (let pad = 0; pad < 4; pad++) {
      const text = `${"x".repeat(pad)}${"😀".repeat(20_000)}\n\n${"😀".repeat(20_000)}`;
      const clamped = clampText(text, 65_535);
      expect(clamped.length).toBeLessThanOrEqual(65_535);
      expect(isWellFormed(clamped)).toBe(true);
      expect(clamped.endsWith("… (truncated to fit GitHub's limit)")).toBe(true);
    }
  });

  it("keeps a title within 255 units on a code point", () => {
    for (let pad = 0; pad < 2; pad++) {
      const { title } = clampOutput({ title: "t".repeat(pad) + "𝔸".repeat(300), summary: "s" });
      expect(title.length).toBeLessThanOrEqual(255);
      expect(isWellFormed(title)).toBe(true);
      expect(title.endsWith("…")).toBe(true);
    }
  });

  it("removes invisible and format characters from the title", () => {
    const { title } = clampOutput({ title: "Loupe:\u180B 1 finding\u{E0080} (1\u200B high)", summary: "s" });
    expect(title).toBe("Loupe: 1 finding (1 high)");
  });

  it("leaves text within the limit as it is", () => {
    expect(clampText("short 😀", 65_535)).toBe("short 😀");
  });
});

describe("clamping never cuts inside a Markdown construct", () => {
  cmarkJudges();
  const judge = (markdown: string) => [
    ...allProblems(markdown, micromarkOracle, NONE),
    ...allProblems(markdown, cmarkOracle, NONE),
  ];
  // Each case is over the limit, with the limit falling at every offset of a construct in turn.
  const hostile = "<img src=x> @octocat #1 www.evil.example ".repeat(60);

  it.each([0, 1, 7, 500, 1999])("cuts before a code span that straddles the limit (offset %i)", (shift) => {
    const blocks = Array.from({ length: 40 }, (_, i) =>
      paragraph(text(`${"x".repeat(shift)} ${i}: `), code(hostile)),
    );
    const markdown = serializeBlocks(blocks);
    expect(markdown.length).toBeGreaterThan(65_535);
    const clamped = clampText(markdown, 65_535);
    expect(clamped.length).toBeLessThanOrEqual(65_535);
    expect(clamped.endsWith("… (truncated to fit GitHub's limit)")).toBe(true);
    expect(judge(clamped)).toEqual([]);
  });

  it.each([0, 3, 1000])("cuts before a code block that straddles the limit (offset %i)", (shift) => {
    const blocks = Array.from({ length: 30 }, (_, i) => [
      paragraph(text(`${"y".repeat(shift)} ${i}`)),
      codeBlock(`${hostile}\n\n<!-- loupe:fp=0011223344556677 -->\n${hostile}`),
    ]).flat();
    const clamped = clampText(serializeBlocks(blocks), 65_535);
    expect(clamped.length).toBeLessThanOrEqual(65_535);
    expect(judge(clamped)).toEqual([]);
  });

  it("leaves only the note when no block ends within the limit", () => {
    const clamped = clampText(serializeBlocks([paragraph(code(hostile.repeat(40)))]), 65_535);
    expect(clamped).toBe("… (truncated to fit GitHub's limit)");
  });

  it("keeps a hidden marker whole or leaves it out, across blank lines inside it", () => {
    const marker = `<!-- a\n\n${"z".repeat(65_600)}\n\nb -->`;
    expect(clampText(`intro\n\n${marker}\n\nend`, 65_535)).toBe(
      "intro\n\n… (truncated to fit GitHub's limit)",
    );
  });
});
