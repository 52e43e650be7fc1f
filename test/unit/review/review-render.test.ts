import { describe, expect, it } from "@jest/globals";
import type { ChangedFile } from "../../../src/domain/changed-file.ts";
import type { FinalReview, Finding } from "../../../src/domain/finding.ts";
import type { ForgeWords } from "../../../src/domain/forge-words.ts";
import { GITHUB_WORDS } from "../../../src/forges/github/words.ts";
import { gitLabWords } from "../../../src/forges/gitlab/words.ts";
import { extractFingerprints } from "../../../src/review/fingerprint.ts";
import { planReview } from "../../../src/review/plan-review.ts";
import type { InlineAnchor } from "../../../src/review/plan-types.ts";
import { MAX_REVIEW_BODY, renderReviewBody } from "../../../src/review/render-body.ts";
import { renderInlineComment } from "../../../src/review/render-inline.ts";
import { hasReviewMarker, reviewMarker } from "../../../src/review/review-marker.ts";

const repository = { owner: "acme", repo: "widgets", host: "github.com" };
const SHA = "0123456789abcdef0123456789abcdef01234567";
const FP = "00112233aabbccdd";
const anchor: InlineAnchor = {
  kind: "inline",
  path: "a.ts",
  line: 3,
  side: "RIGHT",
  fullRange: true,
};

function finding(over: Partial<Finding> = {}): Finding {
  return {
    severity: "high",
    title: "Unchecked input",
    explanation: "It is @admin's fault, see #3.",
    path: "a.ts",
    line: 3,
    evidence: "`req.body`",
    recommendation: "Validate it.",
    ...over,
  };
}

describe("renderInlineComment", () => {
  it("shows badge, title, fields and the fingerprint marker, sanitised", () => {
    const body = renderInlineComment(finding(), anchor, FP, true, repository, GITHUB_WORDS);
    expect(body).toContain("🟠 **High** · Unchecked input");
    expect(body).toContain("＠admin");
    expect(body).toContain("＃3");
    expect(body).toContain("**Evidence**\n\n`req.body`");
    expect(body).toContain("**Recommendation**\n\nValidate it.");
    expect(extractFingerprints(body)).toEqual(new Set([FP]));
  });

  it.each<[string, string | null | undefined, boolean, InlineAnchor, RegExp | null]>([
    ["a suggestion on the finding's full range", "fixed();", true, anchor, /```suggestion\nfixed\(\);\n```/],
    ["an empty suggestion (deletes the lines)", "", true, anchor, /```suggestion\n\n```/],
    [
      "a suggestion whose range was clipped",
      "fixed();",
      true,
      { ...anchor, fullRange: false },
      /\*\*Suggested code\*\*[\s\S]*```\nfixed\(\);\n```/,
    ],
    ["a suggestion the caller disallows", "fixed();", false, anchor, /\*\*Suggested code\*\*/],
    ["no suggestion", null, true, anchor, null],
  ])("renders %s", (_name, suggestion, allowed, a, pattern) => {
    const body = renderInlineComment(finding({ suggestion }), a, FP, allowed, repository, GITHUB_WORDS);
    if (pattern === null) expect(body).not.toContain("```");
    else expect(body).toMatch(pattern);
    if (!allowed || !a.fullRange) expect(body).not.toContain("suggestion\n");
  });

  it("uses a fence longer than any line of backticks alone in the suggestion", () => {
    const suggestion = "const s = `````;\n  `````  \nx";
    const body = renderInlineComment(finding({ suggestion }), anchor, FP, true, repository, GITHUB_WORDS);
    // A run inside a line cannot close a fence; a line of five backticks alone can.
    expect(body).toContain(`\`\`\`\`\`\`suggestion\n${suggestion}\n\`\`\`\`\`\``);
  });

  it("offers a suggestion with a line of 254 backticks behind a fence of 255", () => {
    const suggestion = `a\n${"`".repeat(254)}\nb`;
    const body = renderInlineComment(finding({ suggestion }), anchor, FP, true, repository, GITHUB_WORDS);
    expect(body).toContain(`${"`".repeat(255)}suggestion\n${suggestion}\n${"`".repeat(255)}\n`);
  });

  it.each([255, 256, 1000])(
    "shows a suggestion with a line of %i backticks as plain code after a note, never as a suggestion",
    (n) => {
      const suggestion = `a\n${"`".repeat(n)}\nb`;
      const body = renderInlineComment(finding({ suggestion }), anchor, FP, true, repository, GITHUB_WORDS);
      expect(body).not.toContain("suggestion\n");
      expect(body).toContain(
        "**Suggested code** (not offered as a one-click suggestion: a line of it is a run of 255 or more backticks, which GitHub cannot fence)",
      );
      expect(body).toContain(`~~~\n${suggestion}\n~~~`);
    },
  );

  it("strips bidi controls from a suggestion (Trojan Source)", () => {
    const body = renderInlineComment(
      finding({ suggestion: "a\u202Eb" }),
      anchor,
      FP,
      true,
      repository,
      GITHUB_WORDS,
    );
    expect(body).toContain("suggestion\nab\n");
  });
});

describe("review marker", () => {
  it("is recognised only for the same head SHA and run", () => {
    const body = `text\n\n${reviewMarker(SHA, 42)}`;
    expect(hasReviewMarker(body, SHA, 42)).toBe(true);
    expect(hasReviewMarker(body, SHA, 43)).toBe(false);
    expect(hasReviewMarker(body, "f".repeat(40), 42)).toBe(false);
    expect(hasReviewMarker(null, SHA, 42)).toBe(false);
    expect(hasReviewMarker(undefined, SHA, 42)).toBe(false);
  });

  it("refuses values that would break the comment", () => {
    expect(() => reviewMarker("abc -->", 1)).toThrow(TypeError);
    expect(() => reviewMarker(SHA, 1.5)).toThrow(TypeError);
  });
});

describe("renderReviewBody", () => {
  const PATCH = "@@ -1,2 +1,3 @@\n one\n+two\n three";
  const file = (filename: string, patch: string | null): ChangedFile => ({
    filename,
    status: "modified",
    previousFilename: null,
    patch,
    additions: 0,
    deletions: 0,
  });
  const files: ChangedFile[] = [file("a.ts", PATCH)];
  const findings = [
    finding({ title: "inline one", line: 2 }),
    finding({ title: "far away", line: 40, end_line: 42 }),
    finding({ title: "general", line: null }),
    finding({ title: "nit", severity: "info" }),
    finding({ title: "nit 2", severity: "info" }),
  ];
  const review: FinalReview = {
    summary: "Looks mostly fine, @team.",
    findings,
    notes: ["Tests were not run.", "<b>x</b>"],
  };
  const base = {
    files,
    headTexts: new Map<string, string>(),
    minSeverity: "low" as const,
    maxInline: 10,
    repository,
    words: GITHUB_WORDS,
  };

  it("lists outside findings with their location and reason, counts the rest, ends with the marker", () => {
    const alreadyPosted = new Set([
      ...extractFingerprints(
        planReview({ ...base, findings: [finding({ title: "old", line: 2 })], alreadyPosted: new Set() })
          .inline[0]!.body,
      ),
    ]);
    const plan = planReview({
      ...base,
      findings: [...findings, finding({ title: "old", line: 2 })],
      alreadyPosted,
    });
    const body = renderReviewBody({
      review,
      plan,
      headSha: SHA,
      checkRunId: 9,
      repository,
      words: GITHUB_WORDS,
    });
    expect(body).toContain("Looks mostly fine, ＠team.");
    expect(body).toContain("1 inline comment, 2 findings outside the diff.");
    expect(body).toContain("#### Outside the diff");
    expect(body).toContain("`a.ts:40-42` (the lines are outside the changed hunks)");
    expect(body).toContain("`a.ts` (not tied to a line)");
    expect(body).not.toContain("inline one");
    expect(body).toContain("2 findings below this repository's `min_severity` are not shown (2 info).");
    expect(body).toContain("1 finding already posted on an earlier commit was skipped.");
    expect(body).toContain("#### Notes\n\n• Tests were not run.\n\n• &lt;b\\>x&lt;/b\\>");
    expect(extractFingerprints(body)).toEqual(new Set(plan.outside.map((o) => o.fingerprint)));
    expect(body.endsWith(reviewMarker(SHA, 9))).toBe(true);
  });

  it("puts every finding in the body for the 422 fallback", () => {
    const plan = planReview({ ...base, findings, alreadyPosted: new Set() });
    const body = renderReviewBody({
      review,
      plan,
      headSha: SHA,
      checkRunId: 9,
      repository,
      words: GITHUB_WORDS,
      allInBody: true,
    });
    expect(body).toContain("#### Findings");
    expect(body).toContain("inline one");
    expect(body).toContain("all 3 findings are listed here");
    expect(extractFingerprints(body).size).toBe(3);
  });

  it("says who refused the inline comments and what the change is called in the forge's words", () => {
    const elsewhere = [
      ...findings,
      finding({ title: "untouched", path: "b.ts", line: 3 }),
      finding({ title: "binary", path: "logo.png", line: 1 }),
    ];
    const withBinary: ChangedFile[] = [...files, file("logo.png", null)];
    const plan = planReview({ ...base, files: withBinary, findings: elsewhere, alreadyPosted: new Set() });
    const render = (words: ForgeWords) =>
      renderReviewBody({ review, plan, headSha: SHA, checkRunId: 9, repository, words, allInBody: true });
    const gitlab = render(gitLabWords("loupe-bot"));
    expect(gitlab).toContain("GitLab did not accept the inline comments, so all 5 findings are listed here.");
    expect(gitlab).toContain("`b.ts:3` (the file is not changed in this merge request)");
    expect(gitlab).toContain("`logo.png:1` (GitLab shows no diff for this file");
    expect(gitlab).not.toMatch(/GitHub|pull request/);
    const github = render(GITHUB_WORDS);
    expect(github).toContain("GitHub did not accept the inline comments, so all 5 findings are listed here.");
    expect(github).toContain("`b.ts:3` (the file is not changed in this pull request)");
    expect(github).toContain("`logo.png:1` (GitHub shows no diff for this file");
  });

  it("stays within 65,536 characters, says how many were left out, keeps the marker", () => {
    const big = Array.from({ length: 100 }, (_v, i) =>
      finding({
        title: `finding ${i}`,
        line: null,
        explanation: "e".repeat(9000),
        evidence: "v".repeat(9000),
        recommendation: "r".repeat(9000),
      }),
    );
    const notes = Array.from({ length: 100 }, () => "n".repeat(8000));
    const plan = planReview({ ...base, findings: big, alreadyPosted: new Set() });
    const body = renderReviewBody({
      review: { summary: "s".repeat(9000), findings: big, notes },
      plan,
      headSha: SHA,
      checkRunId: 1,
      repository,
      words: GITHUB_WORDS,
    });
    expect(body.length).toBeLessThanOrEqual(MAX_REVIEW_BODY);
    expect(body).toMatch(
      /\*… \d+ more findings not shown: the review body is limited to 65536 characters\.\*/,
    );
    expect(body).toMatch(/more notes not shown/);
    expect(hasReviewMarker(body, SHA, 1)).toBe(true);
  });
});

describe("limits whatever the model writes", () => {
  it("shows a suggestion whose fence would overflow the comment as a plain block or leaves it out", () => {
    const long = "`".repeat(15000);
    const body = renderInlineComment(
      finding({
        explanation: "e ".repeat(8000),
        evidence: "v".repeat(12000),
        recommendation: "r".repeat(12000),
        suggestion: long,
      }),
      anchor,
      FP,
      true,
      repository,
      GITHUB_WORDS,
    );
    expect(body.length).toBeLessThanOrEqual(65536);
    expect(body).not.toMatch(/^`+suggestion$/m);
    expect(extractFingerprints(body)).toEqual(new Set([FP]));
  });

  it("cuts a long title at a code point, on one line", () => {
    const body = renderInlineComment(
      finding({ title: `${"😀".repeat(400)}\n# @x` }),
      anchor,
      FP,
      true,
      repository,
      GITHUB_WORDS,
    );
    const first = body.split("\n")[0]!;
    expect(first.isWellFormed()).toBe(true);
    expect(first.endsWith("…")).toBe(true);
  });
});
