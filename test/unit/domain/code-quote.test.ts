// Whether a quote of code stands near a finding's lines: the rule that holds a finding's evidence
// and a verifier's refutation to the head commit.

import { describe, expect, it } from "@jest/globals";
import { evidenceQuotesCode, QUOTE_WINDOW_LINES, quoteNear } from "../../../src/domain/code-quote.ts";

const file = Array.from({ length: 400 }, (_, i) => `  const line${i + 1} =   f(${i + 1});`);

describe("quoteNear", () => {
  it("finds a quote near the line, whitespace normalised", () => {
    expect(quoteNear(file, { line: 50 }, "const line50 = f(50);")).toBe(true);
    expect(
      quoteNear(
        file,
        { line: 50 },
        `const line${50 + QUOTE_WINDOW_LINES} =   f(${50 + QUOTE_WINDOW_LINES});`,
      ),
    ).toBe(true);
  });

  it("refuses a quote from elsewhere in the file, prose, and a quote too short to mean anything", () => {
    expect(quoteNear(file, { line: 200 }, "const line1 = f(1);")).toBe(false);
    expect(quoteNear(file, { line: 50 }, "the value is computed twice")).toBe(false);
    expect(quoteNear(file, { line: 50 }, "f(")).toBe(false);
  });

  it("takes several lines in order, and lines copied with their numbers", () => {
    expect(quoteNear(file, { line: 10 }, "const line10 = f(10);\nconst line11 = f(11);")).toBe(true);
    expect(quoteNear(file, { line: 10 }, "const line11 = f(11);\nconst line10 = f(10);")).toBe(false);
    expect(quoteNear(file, { line: 10 }, "10:   const line10 = f(10);\n11:   const line11 = f(11);")).toBe(
      true,
    );
  });

  it("searches a long range only near where it starts, and the whole file for no line", () => {
    expect(quoteNear(file, { line: 1, end_line: 400 }, "const line120 = f(120);")).toBe(true);
    expect(quoteNear(file, { line: 1, end_line: 400 }, "const line300 = f(300);")).toBe(false);
    expect(quoteNear(file, { line: null }, "const line399 = f(399);")).toBe(true);
  });
});

describe("evidenceQuotesCode: evidence as real models write it", () => {
  const service = [
    "def create(widget):",
    "    save(widget)",
    "    validate_name(widget.name)",
    "    return widget",
  ];
  const at = { line: 2 };

  it.each([
    ["backticked code in prose", "`save(widget)` executes before `validate_name(widget.name)`."],
    ["Line N reads:", "Line 2 reads: save(widget)."],
    ["Line N: with quotes", 'Line 3: "validate_name(widget.name)"'],
    ["numbered copied lines", "2:     save(widget)\n3:     validate_name(widget.name)"],
    ["a fenced block", "The write comes first:\n```python\nsave(widget)\nvalidate_name(widget.name)\n```"],
    ["a bare copied line", "save(widget)"],
  ])("finds a quote in %s", (_how, evidence) => {
    expect(evidenceQuotesCode(service, at, evidence)).toBe(true);
  });

  it.each([
    ["prose", "save executes before validate_name."],
    ["an identifier too short to be a quote", "`save` is called first"],
    ["code that is not in the file", "`validate(widget)` is missing"],
  ])("finds none in %s", (_how, evidence) => {
    expect(evidenceQuotesCode(service, at, evidence)).toBe(false);
  });
});
