// The rest of a review in passes, pure: how the budget is shared (each pass a whole loop; tokens
// and time what is left, divided by the passes still to run), how the passes'
// results merge (figures added, findings deduplicated, the first failure named), and what the
// coverage says of every file.

import { describe, expect, it } from "@jest/globals";
import type { ChangedFile, ChangeStatus } from "../../../src/domain/changed-file.ts";
import type { Finding } from "../../../src/domain/finding.ts";
import { addSpend, NO_SPEND } from "../../../src/domain/spend.ts";
import { GITHUB_WORDS } from "../../../src/forges/github/words.ts";
import type { LoopResult } from "../../../src/llm/types.ts";
import { coverageOf } from "../../../src/pipeline/coverage.ts";
import { mergePasses } from "../../../src/pipeline/merge-passes.ts";
import { passShare, passTokensNeeded } from "../../../src/pipeline/pass-share.ts";
import { coverageTitle, renderCoverage } from "../../../src/report/coverage-output.ts";
import { serializeBlocks } from "../../../src/review/markdown-serialize.ts";

const TOTAL = { maxRounds: 16, maxToolCalls: 32, maxTokens: 500_000, timeoutMs: 300_000 };

function finding(path: string, title: string, line = 1): Finding {
  return { severity: "low", title, explanation: "e", path, line, evidence: "v", recommendation: "r" };
}

function result(
  findings: Finding[] | null,
  tokens = 100,
  reason: LoopResult["termination_reason"] = "final_review",
): LoopResult {
  const spend = {
    rounds: 1,
    input_tokens: tokens - 10,
    cached_input_tokens: 0,
    output_tokens: 10,
    provider_dollars: null,
  };
  return {
    termination_reason: reason,
    usage: { prompt_tokens: tokens - 10, completion_tokens: 10, total_tokens: tokens },
    spend,
    rounds: 1,
    tool_calls: 2,
    duration_ms: 5,
    trace: [],
    review: findings === null ? null : { summary: "ok", findings, notes: [] },
  };
}

function file(
  filename: string,
  patch: string | null = "@@",
  lines = 1,
  status: ChangeStatus = "modified",
): ChangedFile {
  return { filename, status, previousFilename: null, patch, additions: lines, deletions: 0 };
}

describe("the budget shared by passes", () => {
  it("gives every pass the per-loop rounds and tool calls, and what is left of tokens and time divided by the passes still to run", () => {
    const fresh = { tokens: 0, elapsedMs: 0 };
    expect(passShare(TOTAL, fresh, 4)).toEqual({
      maxRounds: 16,
      maxToolCalls: 32,
      maxTokens: 125_000,
      timeoutMs: 75_000,
    });
    // The first pass used little: the three left share the rest.
    expect(passShare(TOTAL, { tokens: 20_000, elapsedMs: 10_000 }, 3)).toEqual({
      maxRounds: 16,
      maxToolCalls: 32,
      maxTokens: 160_000,
      timeoutMs: 96_666,
    });
  });

  it("lets a pass take more than its equal share to read its diff and answer, while what is left can pay", () => {
    const needed = passTokensNeeded(400 * 1024);
    expect(needed).toBeGreaterThan(125_000);
    expect(passShare(TOTAL, { tokens: 0, elapsedMs: 0 }, 4, needed)?.maxTokens).toBe(needed);
    expect(passShare(TOTAL, { tokens: 500_000 - needed + 1, elapsedMs: 0 }, 2, needed)).toBeNull();
  });

  it("gives no share when no token or no time is left", () => {
    expect(passShare(TOTAL, { tokens: 500_000, elapsedMs: 0 }, 1)).toBeNull();
    expect(passShare(TOTAL, { tokens: 0, elapsedMs: 300_000 }, 2)).toBeNull();
  });
});

describe("mergePasses", () => {
  it("adds the figures, keeps a finding two passes raised once, and ends final_review when all did", () => {
    const a = result([finding("a/x.ts", "Off by one"), finding("a/y.ts", "Leak")], 100);
    const b = result([finding("a/x.ts", "  off BY one "), finding("b/z.ts", "Race")], 300);
    const merged = mergePasses([
      { result: a, files: 2 },
      { result: b, files: 3 },
    ]);
    expect(merged.termination_reason).toBe("final_review");
    expect(merged.usage.total_tokens).toBe(400);
    expect(merged.spend).toEqual(addSpend(addSpend(NO_SPEND, a.spend), b.spend));
    expect(merged.rounds).toBe(2);
    expect(merged.tool_calls).toBe(4);
    expect(merged.review?.findings.map((f) => f.title)).toEqual(["Off by one", "Leak", "Race"]);
    expect(merged.review?.summary).toBe("Pass 1 of 2 (2 files): ok\n\nPass 2 of 2 (3 files): ok");
  });

  it("names the first failure and keeps the findings of the passes that finished", () => {
    const merged = mergePasses([
      { result: result([finding("a.ts", "A")]), files: 1 },
      { result: result(null, 50, "provider_unavailable"), files: 1 },
      { result: result([finding("c.ts", "C")]), files: 1 },
    ]);
    expect(merged.termination_reason).toBe("provider_unavailable");
    expect(merged.review?.findings.map((f) => f.title)).toEqual(["A", "C"]);
    expect(merged.usage.total_tokens).toBe(250);
  });

  it("has no review when no pass returned one", () => {
    expect(mergePasses([{ result: result(null, 10, "review_timeout"), files: 1 }]).review).toBeNull();
  });
});

describe("coverage", () => {
  it("names the files a finished loop saw only described, and the files .gitattributes left out", () => {
    const changed = [
      file("a.ts"),
      file("logo.png", null, 0, "added"),
      file("huge.sql", null, 90_000),
      file("moved.ts", null, 0, "renamed"),
      file("dist/app.js"),
    ];
    const reviewable = changed.slice(0, 4);
    const coverage = coverageOf({
      changedFiles: changed,
      reviewable,
      leftOut: new Map([["dist/app.js", "generated" as const]]),
      plan: [reviewable],
      ran: [result([])],
      notRun: "budget",
    });
    expect(coverage.notReviewed).toEqual([
      { path: "dist/app.js", reason: "generated" },
      { path: "logo.png", reason: "described" },
      { path: "huge.sql", reason: "described" },
    ]);
    expect(coverageTitle(coverage)).toBe("");
    const shown = serializeBlocks(renderCoverage(coverage, GITHUB_WORDS));
    expect(shown).toContain("| generated (linguist-generated in .gitattributes) | 1 | `dist/app.js` |");
  });

  it("says of every changed file whether a finished pass covered it, and why not", () => {
    const changed = [
      file("a/1.ts"),
      file("b/2.ts"),
      file("c/3.ts"),
      file("docs/x.md"),
      file("old.ts", null, 0, "removed"),
    ];
    const reviewable = changed.slice(0, 3);
    const coverage = coverageOf({
      changedFiles: changed,
      reviewable,
      leftOut: new Map(),
      plan: [[reviewable[0]!], [reviewable[1]!], [reviewable[2]!]],
      ran: [result([finding("a/1.ts", "A")]), result(null, 40, "provider_unavailable")],
      notRun: "budget",
    });
    expect(coverage.reviewedFiles).toBe(1);
    expect(coverage.notReviewed).toEqual([
      { path: "docs/x.md", reason: "excluded" },
      { path: "old.ts", reason: "removed" },
      { path: "b/2.ts", reason: "pass_failed" },
      { path: "c/3.ts", reason: "budget" },
    ]);
    expect(coverage.passes.map((p) => [p.ended, p.findings, p.tokens])).toEqual([
      ["final_review", 1, 100],
      ["provider_unavailable", 0, 40],
      [null, 0, 0],
    ]);
    const shown = serializeBlocks(renderCoverage(coverage, GITHUB_WORDS));
    expect(shown).toContain("1 of 5 changed files reviewed");
    expect(shown).toContain("140 tokens bought the findings of 1 of 3 passes");
    expect(shown).toContain("| the review's budget had no pass left for them | 1 | `c/3.ts` |");
    // The title says so too; excluded and deleted files are not counted against the review.
    expect(coverageTitle(coverage)).toBe(" · 1 of 3 files reviewed");
  });

  it("says what the tokens bought when no pass returned a review", () => {
    const only = [file("a.ts")];
    const coverage = coverageOf({
      changedFiles: only,
      reviewable: only,
      leftOut: new Map(),
      plan: [only],
      ran: [result(null, 70, "review_timeout")],
      notRun: "budget",
    });
    const shown = serializeBlocks(renderCoverage(coverage, GITHUB_WORDS));
    expect(shown).toContain(
      "70 tokens were spent and no pass returned a review, so nothing could be published.",
    );
    expect(shown).toContain("review_timeout: The review did not finish within its time limit.");
  });
});
