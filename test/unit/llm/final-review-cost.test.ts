// Checking a final review reads each file its findings name once, however many findings name it:
// a hundred findings in one megabyte file read and counted it a hundred times. The file's lines
// are counted without being split (a megabyte of newlines is a million lines).

import { describe, expect, it } from "@jest/globals";
import { type FindingFileCheck, headFileCheck, validateFinalReview } from "../../../src/llm/final-review.ts";
import { anchorFinding } from "../../../src/review/anchor-finding.ts";
import { countLines, splitLines } from "../../../src/workspace/text.ts";
import { memoryRepository } from "../../support/memory-repository.ts";

const LINES = 25_000;

function finding(i: number) {
  const base = { severity: "high", title: `Finding ${i}`, explanation: "Why.", path: "src/big.ts" };
  return { ...base, line: 1 + i, end_line: LINES - i, evidence: "const x = 1;", recommendation: "Fix it." };
}

describe("validation", () => {
  it("checks each file once, however many findings name it", async () => {
    const calls: string[] = [];
    const check: FindingFileCheck = async (path) => {
      calls.push(path);
      return { ok: true, lineCount: LINES, lines: Array.from({ length: LINES }, () => "const x = 1;") };
    };
    const findings = Array.from({ length: 100 }, (_, i) => finding(i));
    const verdict = await validateFinalReview(JSON.stringify({ summary: "s", findings, notes: [] }), check);
    expect(verdict.ok).toBe(true);
    expect(calls).toEqual(["src/big.ts"]);
  });
});

describe("the head file check", () => {
  it("counts lines as splitLines does, without splitting", async () => {
    for (const text of ["", "a", "a\n", "a\nb", "\n\n", "a\r\nb\r\n", "\r", "x\n\ny"]) {
      expect([text, countLines(text)]).toEqual([text, splitLines(text).length]);
    }
    const view = memoryRepository({ head: { "src/big.ts": Buffer.from("\n".repeat(1024 * 1024 - 1)) } });
    expect(await headFileCheck(view)("src/big.ts")).toMatchObject({ ok: true, lineCount: 1024 * 1024 - 1 });
  });
});

describe("a finding's path", () => {
  it("is given as the pull request spells it, so `./src/a.ts` anchors inline on src/a.ts", async () => {
    const view = memoryRepository({ head: { "src/a.ts": Buffer.from("one\ntwo\n") } });
    const base = { severity: "high", title: "T", explanation: "Why.", line: 2, evidence: "`two`" };
    const findings = [
      { ...base, path: "./src/a.ts", recommendation: "Fix it." },
      { ...base, path: "././src/a.ts", recommendation: "Fix it." },
      { ...base, path: "src/a.ts", recommendation: "Fix it." },
    ];
    const verdict = await validateFinalReview(
      `\`\`\`json\n${JSON.stringify({ summary: "s", findings, notes: [] })}\n\`\`\``,
      headFileCheck(view),
    );
    if (!verdict.ok) throw new Error(verdict.failures.join("; "));
    expect(verdict.review.findings.map((f) => f.path)).toEqual(["src/a.ts", "src/a.ts", "src/a.ts"]);
    const files = new Map([
      ["src/a.ts", { filename: "src/a.ts", status: "added", patch: "@@ -0,0 +1,2 @@\n+one\n+two" }],
    ]);
    for (const found of verdict.review.findings) {
      expect(anchorFinding(found, files.get(found.path))).toMatchObject({
        kind: "inline",
        path: "src/a.ts",
        line: 2,
      });
    }
  });
});
