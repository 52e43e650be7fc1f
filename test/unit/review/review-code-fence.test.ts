// Code blocks as GitHub's parser reads them: cmark-gfm must show exactly the code Loupe put in a
// block, and the block must end where Loupe ends it. cmark-gfm reads a fence over 255 as 255, and
// only a line of fence characters alone closes a fence, so these cases put such lines of lengths
// on both sides of 255, with indentation and trailing spaces, in code of either fence.

import { describe, expect, it } from "@jest/globals";
import { fenceFor, MAX_FENCE } from "../../../src/review/code-fence.ts";
import { canFenceSuggestion, fencedBlock } from "../../../src/review/markdown-serialize.ts";
import { cmarkBatch, cmarkJudges } from "../../support/gfm-oracle.ts";
import { seededRandom } from "../../support/seeded-random.ts";

const run = (char: string, n: number) => char.repeat(n);
const html = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const LENGTHS = [3, 4, 79, 80, 81, 254, 255, 256, 257, 300];

const NAMED: readonly string[] = [
  ...LENGTHS.flatMap((n) =>
    ["`", "~"].flatMap((c) => [
      `a\n${run(c, n)}\n<b>@x</b>`,
      `a\n   ${run(c, n)}  \t\n<b>@x</b>`,
      `\t${run(c, n)}\nb`,
      `${run(c, n)} x\ny`,
      `x${run(c, n)}`,
      run(c, n),
    ]),
  ),
  `${run("`", 255)}\n${run("~", 255)}\n<b>@x</b>`,
  `${run("`", 254)}\n${run("~", 300)}\n<b>@x</b>`,
  `${run("~", 254)}\n${run("`", 254)}`,
  "",
  "a\n\nb",
];

function generated(count: number): string[] {
  const random = seededRandom(0xfe4ce);
  return Array.from({ length: count }, () => {
    const lines: string[] = [];
    const n = 1 + Math.floor(random() * 5);
    for (let i = 0; i < n; i++) {
      const char = random() < 0.5 ? "`" : "~";
      const pad = " ".repeat(Math.floor(random() * 5));
      const length = LENGTHS[Math.floor(random() * LENGTHS.length)]!;
      lines.push(random() < 0.6 ? `${pad}${run(char, length)}${pad}` : `@x <b>${i}</b>`);
    }
    return lines.join("\n");
  });
}

cmarkJudges(); // fails the suite, with how to get it, when cmark-gfm is missing

describe("code blocks read by cmark-gfm", () => {
  it.each([
    ["named code", NAMED],
    ["generated code", generated(1000)],
  ] as const)("show exactly their code, and end where Loupe ends them, for %s", (_what, contents) => {
    const documents = contents.map((content) => `${fencedBlock(content, "")}\n\nafter`);
    const rendered = cmarkBatch(documents);
    const wrong = contents.flatMap((content, i) => {
      // An indented block drops blank lines at its start and end, which code here never has.
      const expected = `<pre><code>${html(content)}\n</code></pre>\n<p>after</p>\n`;
      return rendered[i] === expected ? [] : [{ content, written: documents[i], html: rendered[i] }];
    });
    expect(wrong).toEqual([]);
  });
});

describe("fences", () => {
  it("are never longer than 255", () => {
    for (const content of [...NAMED, ...generated(300)]) {
      const opening = fencedBlock(content, "").split("\n")[0]!;
      expect(/^(`+|~+)$/.test(opening) ? opening.length : 0).toBeLessThanOrEqual(MAX_FENCE);
    }
  });

  it("grow only for lines of the fence character alone", () => {
    expect(fenceFor("x = ```````;", "`")).toBe("```");
    expect(fenceFor("a\n  `````  \nb", "`")).toBe("``````");
    expect(fenceFor("a\n  `````  \nb", "~")).toBe("~~~");
    expect(fenceFor(run("`", 254), "`")).toBe(run("`", 255));
    expect(fenceFor(run("`", 255), "`")).toBeNull();
  });

  it("leave code no fence can hold indented, a suggestion included", () => {
    const code = `${run("`", 255)}\n${run("~", 255)}`;
    expect(fencedBlock(code, "")).toBe(`    ${run("`", 255)}\n    ${run("~", 255)}`);
    expect(fencedBlock(run("`", 255), "suggestion")).toBe(`    ${run("`", 255)}`);
    expect(canFenceSuggestion(run("`", 255))).toBe(false);
    expect(canFenceSuggestion(`${run("`", 254)}\n${run("~", 999)}`)).toBe(true);
  });
});
