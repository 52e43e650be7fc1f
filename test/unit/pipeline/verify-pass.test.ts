// The pure parts of the verification pass: one verification's slice of the review's budgets, the
// check of a refutation's quote against the head commit, the verdict's validation, and the check
// run's list of held-back findings judged by real GFM parsers (micromark, cmark-gfm).

import { describe, expect, it } from "@jest/globals";
import { DEFAULT_REPLY_LIMITS } from "../../../src/config/reply-limits.ts";
import { DEFAULT_REVIEW_LIMITS } from "../../../src/config/review-limits.ts";
import type { Finding } from "../../../src/domain/finding.ts";
import { NO_SPEND } from "../../../src/domain/spend.ts";
import { GITHUB_WORDS } from "../../../src/forges/github/words.ts";
import type { LoopResult } from "../../../src/llm/types.ts";
import { verdictAnswer } from "../../../src/llm/verify-loop.ts";
import { verifyLimits } from "../../../src/pipeline/verify-limits.ts";
import { serializeBlocks } from "../../../src/review/markdown-serialize.ts";
import { quotesInHead } from "../../../src/review/refutation-quote.ts";
import { renderVerification } from "../../../src/review/render-verification.ts";
import { allProblems, cmarkJudges, cmarkProblems, micromarkOracle } from "../../support/gfm-oracle.ts";
import { randomText } from "../../support/hostile-markdown.ts";
import { memoryRepository } from "../../support/memory-repository.ts";
import { seededRandom } from "../../support/seeded-random.ts";

describe("one verification's budget", () => {
  const limits = DEFAULT_REVIEW_LIMITS;

  it("is a thread reply's default budget while the review has more tokens and time left", () => {
    expect(verifyLimits(limits, { tokens: 400_000, ms: limits.timeoutMs })).toEqual({
      ...DEFAULT_REPLY_LIMITS,
    });
  });

  it("is a loop of its own: rounds and tool calls within the review's per-loop bounds, not what its loop used", () => {
    expect(verifyLimits({ ...limits, maxRounds: 3, maxToolCalls: 2 }, { tokens: 10_000, ms: 10 })).toEqual({
      maxRounds: 3,
      maxToolCalls: 2,
      maxTokens: 10_000,
      timeoutMs: 10,
    });
  });

  it.each([
    ["no token of the grant", { tokens: 0, ms: 1_000 }, limits],
    ["too few tokens to read and answer", { tokens: 1_999, ms: 1_000 }, limits],
    ["no time", { tokens: 1_000, ms: 0 }, limits],
    ["a loop too short to read and answer", { tokens: 1_000, ms: 1_000 }, { ...limits, maxRounds: 1 }],
  ] as const)("is none with %s", (_what, left, bounds) => {
    expect(verifyLimits(bounds, left)).toBeNull();
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

  const refutes = async (finding: Finding, quote: string) =>
    (await quotesInHead(view, finding, quote)).refutes;

  it("is found with whitespace normalised and blank lines dropped", async () => {
    expect(await refutes(at(2), "db.write(record);\n\n   validate(record);")).toBe(false);
    expect(await refutes(at(2), "db.write( record );\n\n   validate(record);")).toBe(true);
  });

  it("is found when copied from the numbered excerpt, numbers and all", async () => {
    expect(await refutes(at(2), "2: \tdb.write( record );\n3:   validate(record);")).toBe(true);
    expect(await refutes(at(2), "2: \tdb.write( record );\n   validate(record);")).toBe(false);
  });

  it("must be near the finding's lines, anywhere for a finding without a line", async () => {
    expect(await refutes(at(2), "const v50 = 50;")).toBe(false);
    expect(await refutes(at(40, 45), "const v50 = 50;")).toBe(true);
    expect(await refutes(at(null), "const v59 = 59;")).toBe(true);
  });

  it("proves nothing when it is too short, absent, or the file cannot be read", async () => {
    expect(await refutes(at(2), " ; ")).toBe(false);
    expect(await refutes(at(2), "validate(other);")).toBe(false);
    expect(await refutes({ ...at(2), path: "../etc/passwd" }, "validate(record);")).toBe(false);
  });

  it("proves nothing when it only quotes the claim back: the flagged lines, or the finding's own evidence", async () => {
    expect(await refutes(at(2), "db.write( record );")).toBe(false);
    expect(await refutes(at(2, 3), "db.write( record );\nvalidate(record);")).toBe(false);
    const claimed = { ...at(2), evidence: "`validate(record);` runs after `db.write( record );`" };
    expect(await refutes(claimed, "db.write( record );\n validate(record);")).toBe(false);
    // A line the claim did not name, next to the flagged one, can refute it.
    expect(await refutes(at(3), "db.write( record );\n validate(record);")).toBe(true);
  });

  it("also says whether the finding's own evidence quotes the head code", async () => {
    const quoted = async (evidence: string) =>
      (await quotesInHead(view, { ...at(2), evidence }, null)).evidenceQuoted;
    expect(await quoted("The record is written before it is validated.")).toBe(false);
    expect(await quoted("Line 2 reads: `db.write( record );`, before `validate(record);`.")).toBe(true);
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
      const verification = {
        kept: 1,
        unproven: 0,
        refuted,
        disputed: refuted,
        unverified: [
          { finding: finding(), why: { kind: "budget" as const } },
          {
            finding: finding(),
            why: { kind: "no_verdict" as const, reason: "invalid_model_response" as const },
          },
        ],
        unquoted: 1,
      };
      documents.push(serializeBlocks(renderVerification({ ...base, verification }, GITHUB_WORDS)));
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
    const verification = {
      kept: 0,
      unproven: 0,
      refuted,
      disputed: [],
      unverified: Array(25).fill({ finding, why: { kind: "budget" } }),
      unquoted: 0,
    };
    const markdown = serializeBlocks(renderVerification({ ...base, verification }, GITHUB_WORDS));
    expect(markdown).toContain("… 15 more not listed.");
    expect(markdown.length).toBeLessThan(40 * 2_500);
  });
});
