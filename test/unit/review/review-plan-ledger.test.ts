import { describe, expect, it } from "@jest/globals";
import type { Finding } from "../../../src/domain/finding.ts";
import { GITHUB_WORDS } from "../../../src/forges/github/words.ts";
import { extractIdentities, findingIdentity } from "../../../src/review/finding-identity.ts";
import type { LedgerEntry, LedgerStatus } from "../../../src/review/ledger.ts";
import { planReview } from "../../../src/review/plan-review.ts";
import { renderReviewBody } from "../../../src/review/render-body.ts";

const repository = { owner: "acme", repo: "widgets", host: "github.com" };
const HEAD = "const user = findUser(id);\nreturn user.name;\n";
const files = [
  {
    filename: "a.ts",
    status: "added",
    patch: "@@ -0,0 +1,2 @@\n+const user = findUser(id);\n+return user.name;",
  },
];

const finding = (overrides: Partial<Finding> = {}): Finding => ({
  severity: "high",
  title: "Unchecked null dereference of user",
  explanation: "findUser returns null when the id is unknown, and user.name then throws a TypeError.",
  path: "a.ts",
  line: 2,
  evidence: "user.name",
  recommendation: "Check for null.",
  ...overrides,
});

const entry = (status: LedgerStatus, code = "return user.name;"): LedgerEntry => ({
  identity: findingIdentity({ ...finding(), code }),
  fingerprint: "00000000000000aa",
  status,
  title: "Unchecked null dereference of user",
  path: "a.ts",
  line: 2,
  dismissal: null,
});

const plan = (ledger: LedgerEntry[], f: Finding = REWORDED) =>
  planReview({
    findings: [f],
    files,
    headTexts: new Map([["a.ts", HEAD]]),
    minSeverity: "info",
    maxInline: 10,
    alreadyPosted: new Set(),
    repository,
    words: GITHUB_WORDS,
    ledger,
  });

const REWORDED = finding({
  title: "Possible null pointer dereference on `user`",
  explanation: "When the id is unknown findUser returns null; reading user.name throws a TypeError.",
});

describe("planning against the ledger", () => {
  it("does not post again a reworded finding that is open, and keeps its thread open under the old mark", () => {
    const planned = plan([entry("open")]);
    expect(planned.inline).toEqual([]);
    expect(planned.duplicates).toHaveLength(1);
    expect(planned.raised.has("00000000000000aa")).toBe(true);
  });

  it("does not raise a dismissed or withdrawn finding again, and the body says so", () => {
    for (const status of ["dismissed", "withdrawn"] as const) {
      const planned = plan([entry(status)]);
      expect(planned.inline).toEqual([]);
      expect(planned.dismissed).toHaveLength(1);
      const body = renderReviewBody({
        review: { summary: "", findings: [REWORDED], notes: [] },
        plan: planned,
        headSha: "a".repeat(40),
        checkRunId: 1,
        repository,
        words: GITHUB_WORDS,
      });
      expect(body).toContain("1 finding dismissed earlier was not raised again.");
    }
  });

  it("posts a dismissed finding again once its code changed, saying so", () => {
    const planned = plan([entry("dismissed", "return user.fullName;")]);
    expect(planned.inline).toHaveLength(1);
    expect(planned.inline[0]!.body).toContain("Raised again: this finding was dismissed earlier");
  });

  it("posts another claim on the same code, and a fixed finding that came back", () => {
    const other = finding({
      title: "Timing attack in comparison",
      explanation: "=== on secrets leaks timing.",
    });
    expect(plan([entry("open")], other).inline).toHaveLength(1);
    expect(plan([entry("fixed")]).inline).toHaveLength(1);
  });

  it("marks a finding listed in the body with its identity, so the next review knows it", () => {
    const planned = plan([], finding({ line: null }));
    expect(planned.outside).toHaveLength(1);
    const body = renderReviewBody({
      review: { summary: "", findings: [finding({ line: null })], notes: [] },
      plan: planned,
      headSha: "a".repeat(40),
      checkRunId: 1,
      repository,
      words: GITHUB_WORDS,
    });
    expect(extractIdentities(body)).toEqual([planned.outside[0]!.identity]);
  });
});
