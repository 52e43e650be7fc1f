// Planning a final review in work linear in its findings and the lines of the files they name:
// each file is read once, indexed once (file-code.ts) and each finding's code is a slice of that,
// so a hundred findings that each span a megabyte file cost about what one does.
// The code a fingerprint reads is the one the plain definition reads (split the head text, take
// the range's lines, normalise), so fingerprints of earlier reviews still match.

import { describe, expect, it } from "@jest/globals";
import type { Finding } from "../../../src/domain/finding.ts";
import { GITHUB_WORDS } from "../../../src/forges/github/words.ts";
import { FileCode } from "../../../src/review/file-code.ts";
import {
  fingerprintCode,
  fingerprintFinding,
  MAX_FINGERPRINT_CODE,
} from "../../../src/review/fingerprint.ts";
import { parsePatch } from "../../../src/review/patch-hunks.ts";
import { planReview } from "../../../src/review/plan-review.ts";
import { medianCpuMs } from "../../support/median-cpu.ts";
import { seededRandom } from "../../support/seeded-random.ts";

const LINES = 25_000;
const BIG = Array.from({ length: LINES }, (_, i) => `  const value${i} = compute(${i}); // line`);
const HEAD = `${BIG.join("\n")}\n`;
const PATCH = `@@ -0,0 +1,${LINES} @@\n${BIG.map((line) => `+${line}`).join("\n")}`;

function finding(i: number): Finding {
  return {
    severity: "high",
    title: `Finding ${i}`,
    explanation: "Why.",
    path: "src/big.ts",
    line: 1 + i,
    end_line: LINES - i,
    evidence: "",
    recommendation: "Fix it.",
  };
}

function plan(findings: readonly Finding[]) {
  return planReview({
    findings,
    files: [{ filename: "src/big.ts", patch: PATCH }],
    headTexts: new Map([["src/big.ts", HEAD]]),
    minSeverity: "low",
    maxInline: 50,
    alreadyPosted: new Set(),
    repository: { owner: "acme", repo: "widgets", host: "github.com" },
    words: GITHUB_WORDS,
  });
}

describe("planning", () => {
  it("a hundred findings over a megabyte file cost about what one does", () => {
    const hundred = Array.from({ length: 100 }, (_, i) => finding(i));
    plan(hundred); // warm: the measured runs compare steady work
    const one = medianCpuMs(() => plan([finding(0)]));
    const all = medianCpuMs(() => plan(hundred));
    // Splitting and walking the file once per finding made this about a hundred times one.
    expect(all).toBeLessThanOrEqual(4 * one + 20);
    const result = plan(hundred);
    expect(result.inline).toHaveLength(50);
    expect(new Set([...result.inline, ...result.outside].map((entry) => entry.fingerprint)).size).toBe(100);
  });
});

describe("the code a fingerprint reads", () => {
  /** The definition: the head text split into lines, the range's lines, normalised, blank ones left out. */
  const definition = (text: string, first: number, last: number) =>
    text
      .split(/\r?\n/)
      .slice(first - 1, last)
      .map((line) => line.replace(/\s+/g, " ").trim())
      .filter((line) => line !== "")
      .join("\n");

  it("is the definition's, on generated texts and ranges", () => {
    const random = seededRandom(0xf1e1);
    const pieces = ["a", " ", "\t", "\n", "\r\n", "\r", "é", "  b  ", "\n\n"];
    for (let i = 0; i < 500; i++) {
      const text = Array.from(
        { length: Math.floor(random() * 40) },
        () => pieces[Math.floor(random() * 9)]!,
      ).join("");
      const code = FileCode.fromText(text);
      const first = 1 + Math.floor(random() * 10);
      const last = first + Math.floor(random() * 10);
      expect([text, first, last, code.code(first, last)]).toEqual([
        text,
        first,
        last,
        definition(text, first, last),
      ]);
    }
  });

  it("is the patch's RIGHT lines when the head text is missing", () => {
    const patch = "@@ -2,2 +2,3 @@\n two\n+  three \n four\n@@ -9 +10 @@\n-x\n+ten";
    const code = FileCode.fromHunks(parsePatch(patch));
    expect(code.code(1, 12)).toBe("two\nthree\nfour\nten");
    expect(code.code(3, 9)).toBe("three\nfour");
  });

  it("is hashed whole up to a bound, and past it by its ends and length", () => {
    expect(fingerprintCode("a.ts", "x\ny", "T")).toBe(fingerprintFinding("a.ts", ["  x", "y  "], "T"));
    const long = (middle: string) =>
      `${"a".repeat(MAX_FINGERPRINT_CODE)}${middle}${"z".repeat(MAX_FINGERPRINT_CODE)}`;
    expect(fingerprintCode("a.ts", long("m"), "T")).toBe(fingerprintCode("a.ts", long("n"), "T"));
    expect(fingerprintCode("a.ts", long("m"), "T")).not.toBe(fingerprintCode("a.ts", long("mm"), "T"));
    expect(fingerprintCode("a.ts", `b${long("m").slice(1)}`, "T")).not.toBe(
      fingerprintCode("a.ts", long("m"), "T"),
    );
  });
});
