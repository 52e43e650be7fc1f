// Inline code as GitHub's parser reads it: cmark-gfm must show exactly the content Loupe put in a
// code span, and nothing after it may be read as Markdown. cmark-gfm never closes a span opened by
// more than 80 backticks and closes one only on a run of exactly its opener's length, so these
// cases sit on both sides of 80 and fill every length from 1 to 80.

import { describe, expect, it } from "@jest/globals";
import { MAX_SPAN_DELIMITER, splitForSpans } from "../../../src/review/code-span.ts";
import { codeSpan } from "../../../src/review/markdown-escape.ts";
import { cmarkBatch, cmarkJudges } from "../../support/gfm-oracle.ts";
import { seededRandom } from "../../support/seeded-random.ts";

const ticks = (n: number) => "`".repeat(n);
const everyRun = (between: string) => Array.from({ length: 80 }, (_, i) => ticks(i + 1)).join(between);
const html = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const NAMED: readonly string[] = [
  ...[1, 2, 3, 79, 80, 81, 82, 100, 255].flatMap((n) => [
    ticks(n),
    `a${ticks(n)}b`,
    ` ${ticks(n)} `,
    `${ticks(n)}a`,
    `a ${ticks(n)}`,
  ]),
  " a ",
  "  ",
  " ",
  " a",
  "a ",
  "` a",
  "a `",
  " `` ",
  "`a`",
  everyRun("x"),
  everyRun("<b>@x</b>"),
  `${everyRun(" ")} ${ticks(82)}`,
  [...everyRun("y").split("y")].reverse().join("y"),
  `${everyRun("a")}b${everyRun("c")}`,
];

/** Strings of spaces, letters, HTML and backtick runs of every length that matters. */
function generated(count: number): string[] {
  const random = seededRandom(0x5a7);
  const parts = [" ", "a", "<b>", "@x", ticks(1), ticks(2), ticks(79), ticks(80), ticks(81), ticks(300)];
  return Array.from({ length: count }, () => {
    let out = "";
    const n = 1 + Math.floor(random() * 12);
    for (let i = 0; i < n; i++) out += parts[Math.floor(random() * parts.length)]!;
    return out;
  });
}

cmarkJudges(); // fails the suite, with how to get it, when cmark-gfm is missing

describe("code spans read by cmark-gfm", () => {
  it.each([
    ["named contents", NAMED],
    ["generated contents", generated(2000)],
  ] as const)("show exactly their content, and end where Loupe ends them, for %s", (_what, contents) => {
    // A paragraph after each span would be swallowed by one that did not close.
    const documents = contents.map((content) => `${codeSpan(content)} <b>after</b>`);
    const rendered = cmarkBatch(documents);
    const wrong = contents.flatMap((content, i) => {
      const pieces = splitForSpans(content).map((piece) => `<code>${html(piece)}</code>`);
      const expected = `<p>${pieces.join(" ")} <b>after</b></p>\n`;
      return rendered[i] === expected ? [] : [{ content, written: documents[i], html: rendered[i] }];
    });
    expect(wrong).toEqual([]);
  });
});

describe("codeSpan", () => {
  it("never opens a span with more than 80 backticks", () => {
    for (const content of [...NAMED, ...generated(500)]) {
      for (const run of codeSpan(content).match(/`+/g) ?? []) {
        expect(run.length <= MAX_SPAN_DELIMITER || content.includes(run)).toBe(true);
      }
    }
  });

  it("uses the shortest backtick run its content does not hold", () => {
    expect(codeSpan("a`b")).toBe("``a`b``");
    expect(codeSpan(`a${ticks(80)}b`)).toBe(`\`a${ticks(80)}b\``);
    expect(codeSpan(`\` ${ticks(2)} ${ticks(80)}`)).toBe(`\`\`\` \` ${ticks(2)} ${ticks(80)} \`\`\``);
  });

  it("splits content holding every run from 1 to 80 into spans that each leave one free", () => {
    const content = everyRun("x");
    const pieces = splitForSpans(content);
    expect(pieces.join("")).toBe(content);
    expect(pieces.length).toBe(2);
  });
});
