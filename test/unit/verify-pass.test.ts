// The pure parts of the verification pass: one verification's slice of the review's budgets, the
// check of a refutation's quote against the head commit, the verdict's validation, and the check
// run's list of held-back findings judged by real GFM parsers (micromark, cmark-gfm).

import { describe, expect, it } from "@jest/globals";
import { DEFAULT_REPLY_BUDGET } from "../../src/config/reply-limits.ts";
import { DEFAULT_REVIEW_LIMITS } from "../../src/config/review-limits.ts";
import type { Finding } from "../../src/domain/finding.ts";
import { NO_SPEND } from "../../src/domain/spend.ts";
import type { LoopResult } from "../../src/llm/types.ts";
import { verdictAnswer } from "../../src/llm/verify-loop.ts";
import { verifyBudget } from "../../src/pipeline/verify-budget.ts";
import { serializeBlocks } from "../../src/review/markdown-serialize.ts";
import { quoteInHead } from "../../src/review/refutation-quote.ts";
import { renderVerification } from "../../src/review/render-verification.ts";
import { allProblems, cmarkJudges, cmarkProblems, micromarkOracle } from "../support/gfm-oracle.ts";
import { randomText } from "../support/hostile-markdown.ts";
import { memoryRepository } from "../support/memory-repository.ts";
import { seededRandom } from "../support/seeded-random.ts";

const spent = (rounds: number, toolCalls: number, tokens: number, ms: number) => ({
  rounds,
  tool_calls: toolCalls,
  duration_ms: ms,
  usage: { prompt_tokens: tokens, completion_tokens: 0, total_tokens: tokens },
});

describe("one verification's budget", () => {
  const limits = DEFAULT_REVIEW_LIMITS;

  it("is a thread reply's default budget while the review has more left", () => {
    expect(verifyBudget(limits, null, spent(1, 0, 0, 0))).toEqual({ ...DEFAULT_REPLY_BUDGET });
  });

  it("is bounded by what the review has left, the budget's token grant included", () => {
    expect(verifyBudget(limits, 50_000, spent(5, 30, 40_000, limits.timeoutMs - 10))).toEqual({
      maxRounds: 3,
      maxToolCalls: 2,
      maxTokens: 10_000,
      timeoutMs: 10,
    });
  });

  it.each([
    ["one round", spent(limits.maxRounds - 1, 0, 0, 0), null],
    ["no tool call", spent(1, limits.maxToolCalls, 0, 0), null],
    ["no token of the grant", spent(1, 0, 1_000, 0), 1_000],
    ["no time", spent(1, 0, 0, limits.timeoutMs), null],
  ] as const)("is none when %s is left", (_what, used, grant) => {
    expect(verifyBudget(limits, grant, used)).toBeNull();
  });
});

describe("a refutation's quote", () => {
  const filler = Array.from({ length: 60 }, (_, i) => `const v${i} = ${i};`);
  const file = [
    "function save(db, record) {",
    "\tdb.write( record );",
    "  validate(record);",
    "}",
    ...filler,
  ];
  const view = memoryRepository({ head: { "src/a.ts": file.join("\n") } });
  const at = (line: number | null, end: number | null = null): Finding => ({
    severity: "high",
    title: "t",
    explanation: "e",
    path: "src/a.ts",
    line,
    end_line: end,
    evidence: "e",
    recommendation: "r",
  });

  it("is found with whitespace normalised and blank lines dropped", async () => {
    expect(await quoteInHead(view, at(2), "db.write(record);\n\n   validate(record);")).toBe(false);
    expect(await quoteInHead(view, at(2), "db.write( record );\n\n   validate(record);")).toBe(true);
  });

  it("is found when copied from the numbered excerpt, numbers and all", async () => {
    expect(await quoteInHead(view, at(2), "2: \tdb.write( record );\n3:   validate(record);")).toBe(true);
    expect(await quoteInHead(view, at(2), "2: \tdb.write( record );\n   validate(record);")).toBe(false);
  });

  it("must be near the finding's lines, anywhere for a finding without a line", async () => {
    expect(await quoteInHead(view, at(2), "const v50 = 50;")).toBe(false);
    expect(await quoteInHead(view, at(40, 45), "const v50 = 50;")).toBe(true);
    expect(await quoteInHead(view, at(null), "const v59 = 59;")).toBe(true);
  });

  it("proves nothing when it is too short, absent, or the file cannot be read", async () => {
    expect(await quoteInHead(view, at(2), " ; ")).toBe(false);
    expect(await quoteInHead(view, at(2), "validate(other);")).toBe(false);
    expect(await quoteInHead(view, { ...at(2), path: "../etc/passwd" }, "validate(record);")).toBe(false);
  });
});

describe("the verdict", () => {
  it("is one of three, with a reason and a quote or null, and nothing else", async () => {
    const answer = verdictAnswer();
    const ok = { verdict: "refuted", reason: "r", quote: "x" };
    expect(await answer.validate(JSON.stringify(ok))).toEqual({ ok: true, value: ok });
    const bad = await answer.validate(JSON.stringify({ verdict: "maybe", reason: "", quote: 1, extra: 1 }));
    expect(bad).toEqual({
      ok: false,
      failures: expect.arrayContaining([
        "verdict: must be one of confirmed, plausible, refuted",
        "reason: must not be empty",
        "extra: is not a field of the verdict (no additional fields are allowed)",
      ]),
    });
  });
});

describe("the check run's list of refuted and unverified findings", () => {
  const base: LoopResult = {
    termination_reason: "final_review",
    review: null,
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    spend: NO_SPEND,
    rounds: 1,
    tool_calls: 0,
    duration_ms: 1,
    trace: null,
  };
  const cmark = cmarkJudges();
  const NONE = { linkPrefix: null, markers: [] };

  it("is inert Markdown whatever the model wrote in titles, reasons and quotes", () => {
    const random = seededRandom(20261205);
    const documents: string[] = [];
    for (let i = 0; i < 150; i++) {
      const finding = (): Finding => ({
        severity: "low",
        title: randomText(random),
        explanation: "",
        path: randomText(random, 3) || "a",
        line: 3,
        evidence: "",
        recommendation: "",
      });
      const refuted = [{ finding: finding(), reason: randomText(random), quote: randomText(random, 20) }];
      const verification = { kept: 1, unproven: 0, refuted, unverified: [finding()] };
      documents.push(serializeBlocks(renderVerification({ ...base, verification })));
    }
    for (const markdown of documents) expect(allProblems(markdown, micromarkOracle, NONE)).toEqual([]);
    if (cmark) {
      const judged = cmarkProblems(documents.map((markdown) => ({ markdown, expectation: NONE })));
      expect(judged.flat()).toEqual([]);
    }
  });

  it("is bounded: at most twenty of each, the rest counted", () => {
    const finding: Finding = {
      severity: "low",
      title: "x".repeat(10_000),
      explanation: "",
      path: "a.ts",
      line: 1,
      evidence: "",
      recommendation: "",
    };
    const refuted = Array.from({ length: 30 }, () => ({
      finding,
      reason: "r".repeat(10_000),
      quote: "q".repeat(10_000),
    }));
    const verification = { kept: 0, unproven: 0, refuted, unverified: Array(25).fill(finding) };
    const markdown = serializeBlocks(renderVerification({ ...base, verification }));
    expect(markdown).toContain("… 15 more not listed.");
    expect(markdown.length).toBeLessThan(40 * 2_500);
  });
});
