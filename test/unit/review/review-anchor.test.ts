import { describe, expect, it } from "@jest/globals";
import type { ChangedFile } from "../../../src/domain/changed-file.ts";
import type { Finding } from "../../../src/domain/finding.ts";
import { GITHUB_WORDS } from "../../../src/forges/github/words.ts";
import { anchorFinding } from "../../../src/review/anchor-finding.ts";
import { extractFingerprints, fingerprintFinding } from "../../../src/review/fingerprint.ts";
import { planReview } from "../../../src/review/plan-review.ts";

const repository = { owner: "acme", repo: "widgets", host: "github.com" };

// New file lines 1..12; hunks cover new lines 2..5 and 9..11.
const PATCH = [
  "@@ -2,3 +2,4 @@",
  " two",
  "+three",
  " four",
  " five",
  "@@ -8,3 +9,3 @@",
  " nine",
  "-x",
  "+ten",
  " eleven",
].join("\n");
const HEAD = [
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
].join("\n");
/** A changed file as a host lists it; the counts do not matter to anchoring. */
const changed = (filename: string, patch: string | null, more: Partial<ChangedFile> = {}): ChangedFile => ({
  filename,
  status: "modified",
  previousFilename: null,
  patch,
  additions: 0,
  deletions: 0,
  ...more,
});
const FILE = changed("src/a.ts", PATCH);

function finding(over: Partial<Finding> = {}): Finding {
  return {
    severity: "medium",
    title: "Title",
    explanation: "Why.",
    path: "src/a.ts",
    line: 3,
    evidence: "",
    recommendation: "Fix it.",
    ...over,
  };
}

describe("anchorFinding", () => {
  it.each<[string, Partial<Finding>, ChangedFile | undefined, object]>([
    ["an added line", { line: 3 }, FILE, { kind: "inline", line: 3, fullRange: true }],
    ["a context line", { line: 5 }, FILE, { kind: "inline", line: 5, fullRange: true }],
    [
      "a range inside one hunk",
      { line: 2, end_line: 4 },
      FILE,
      { kind: "inline", startLine: 2, line: 4, fullRange: true },
    ],
    [
      "a range across two hunks: clipped to the last hunk",
      { line: 4, end_line: 10 },
      FILE,
      { kind: "inline", startLine: 9, line: 10, fullRange: false },
    ],
    [
      "a range that runs past its hunk",
      { line: 5, end_line: 7 },
      FILE,
      { kind: "inline", line: 5, fullRange: false },
    ],
    ["a line between hunks", { line: 7 }, FILE, { kind: "outside", reason: "line_not_in_diff" }],
    [
      "a range between hunks",
      { line: 6, end_line: 8 },
      FILE,
      { kind: "outside", reason: "line_not_in_diff" },
    ],
    ["no line", { line: null }, FILE, { kind: "outside", reason: "no_line" }],
    ["a file not in the pull request", {}, undefined, { kind: "outside", reason: "file_not_in_diff" }],
    [
      "a binary or oversized file (no patch)",
      {},
      changed("src/a.ts", null),
      { kind: "outside", reason: "no_patch" },
    ],
    [
      "a pure rename (empty patch)",
      {},
      changed("src/a.ts", "", { status: "renamed", previousFilename: "old.ts" }),
      { kind: "outside", reason: "no_patch" },
    ],
    [
      "a malformed patch",
      {},
      changed("src/a.ts", "garbage"),
      { kind: "outside", reason: "line_not_in_diff" },
    ],
    [
      "end_line before line (read as one line)",
      { line: 3, end_line: 1 },
      FILE,
      { kind: "inline", line: 3, fullRange: true },
    ],
  ])("%s", (_name, over, file, expected) => {
    const anchor = anchorFinding(finding(over), file);
    expect(anchor).toMatchObject(expected);
    if (anchor.kind === "inline" && anchor.startLine === undefined) expect("startLine" in anchor).toBe(false);
  });

  it("uses the renamed file's new name", () => {
    const renamed = changed("src/new.ts", "@@ -1 +1 @@\n-a\n+b", {
      status: "renamed",
      previousFilename: "src/old.ts",
    });
    expect(anchorFinding(finding({ path: "src/new.ts", line: 1 }), renamed)).toMatchObject({
      kind: "inline",
      path: "src/new.ts",
    });
  });

  it("does not walk an absurd end_line", () => {
    expect(anchorFinding(finding({ line: 3, end_line: 1e12 }), FILE)).toMatchObject({
      kind: "inline",
      startLine: 9,
      line: 11,
    });
  });
});

describe("planReview", () => {
  const base = {
    files: [FILE, changed("bin.png", null, { status: "added" })],
    headTexts: new Map([["src/a.ts", HEAD]]),
    minSeverity: "low" as const,
    maxInline: 10,
    alreadyPosted: new Set<string>(),
    repository,
    words: GITHUB_WORDS,
  };

  it("puts every finding in exactly one bucket", () => {
    const findings = [
      finding({ title: "inline", line: 3 }),
      finding({ title: "outside", line: 7 }),
      finding({ title: "binary", path: "bin.png", line: 1 }),
      finding({ title: "minor", severity: "info" }),
      finding({ title: "no line", line: null }),
    ];
    const plan = planReview({ ...base, findings });
    expect(plan.inline.map((c) => c.finding.title)).toEqual(["inline"]);
    expect(plan.outside.map((o) => [o.finding.title, o.reason])).toEqual([
      ["outside", "line_not_in_diff"],
      ["binary", "no_patch"],
      ["no line", "no_line"],
    ]);
    expect(plan.belowThreshold.map((f) => f.title)).toEqual(["minor"]);
    expect(plan.duplicates).toEqual([]);
  });

  it("builds createReview comments with a range only when it has several lines", () => {
    const plan = planReview({
      ...base,
      findings: [finding({ line: 2, end_line: 4 }), finding({ title: "b", line: 10 })],
    });
    expect(plan.inline[0]).toMatchObject({
      path: "src/a.ts",
      line: 4,
      start_line: 2,
      side: "RIGHT",
      start_side: "RIGHT",
    });
    expect(plan.inline[1]).not.toHaveProperty("start_line");
    expect(plan.inline[1]).not.toHaveProperty("start_side");
    for (const c of plan.inline) expect(extractFingerprints(c.body)).toEqual(new Set([c.fingerprint]));
  });

  it("gives the inline slots to the most severe findings and sends the rest to the body", () => {
    const findings = [
      finding({ title: "low", severity: "low", line: 2 }),
      finding({ title: "crit", severity: "critical", line: 3 }),
      finding({ title: "high", severity: "high", line: 4 }),
    ];
    const plan = planReview({ ...base, findings, maxInline: 2 });
    expect(plan.inline.map((c) => c.finding.title)).toEqual(["crit", "high"]);
    expect(plan.outside).toMatchObject([{ reason: "inline_limit", finding: { title: "low" } }]);
  });

  it("skips findings already posted, recognised after an unrelated push moved them", () => {
    const first = planReview({ ...base, findings: [finding({ line: 3 })] });
    const posted = extractFingerprints(first.inline[0]!.body);
    // Two lines were inserted above: the same code is now line 5 of a new patch.
    const moved = changed("src/a.ts", "@@ -1,3 +1,5 @@\n+n1\n+n2\n one\n two\n three");
    const second = planReview({
      ...base,
      files: [moved],
      headTexts: new Map([["src/a.ts", `n1\nn2\n${HEAD}`]]),
      alreadyPosted: posted,
      findings: [finding({ line: 5 })],
    });
    expect(second.inline).toEqual([]);
    expect(second.duplicates).toHaveLength(1);
  });

  it("treats two identical findings in one review as one", () => {
    const plan = planReview({ ...base, findings: [finding(), finding()] });
    expect(plan.inline).toHaveLength(1);
    expect(plan.duplicates).toHaveLength(1);
  });

  it("fingerprints from the patch's lines when the head text is missing, as from the head text", () => {
    const range = [finding({ line: 2, end_line: 3 })];
    const fromPatch = planReview({ ...base, headTexts: new Map(), findings: range });
    expect(fromPatch.inline[0]!.fingerprint).toBe(fingerprintFinding("src/a.ts", ["two", "three"], "Title"));
    expect(planReview({ ...base, findings: range }).inline[0]!.fingerprint).toBe(
      fromPatch.inline[0]!.fingerprint,
    );
  });

  it("fingerprints outside findings from the head text, so they are deduplicated too", () => {
    const plan = planReview({ ...base, findings: [finding({ line: 7 })] });
    expect(plan.outside[0]!.fingerprint).toBe(fingerprintFinding("src/a.ts", ["seven"], "Title"));
  });
});
