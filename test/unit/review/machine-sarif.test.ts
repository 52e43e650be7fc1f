// The SARIF writer over the real planner: every log validates against the official SARIF 2.1.0
// schema and GitHub's documented limits, a finding keeps its partial fingerprint when it is
// reworded and moved by an unrelated edit, texts stay inert, and "found nothing" differs from
// "did not finish".

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "@jest/globals";
import type { Finding } from "../../../src/domain/finding.ts";
import { SEVERITIES } from "../../../src/domain/finding.ts";
import { TERMINATION_REASONS } from "../../../src/domain/outcome.ts";
import type { Verification } from "../../../src/domain/verification.ts";
import { GITHUB_WORDS } from "../../../src/forges/github/words.ts";
import { findingIdentity } from "../../../src/review/finding-identity.ts";
import type { LedgerEntry } from "../../../src/review/ledger.ts";
import { planReview } from "../../../src/review/plan-review.ts";
import { type ReviewedFinding, reviewedFindings } from "../../../src/review/reviewed-findings.ts";
import {
  FINGERPRINT_KEY,
  MAX_SARIF_RESULTS,
  type SarifOutcome,
  sarifLog,
} from "../../../src/review/sarif.ts";
import { reviewResultSchema, sarifProblems } from "../../support/machine-checks.ts";

const repository = { owner: "acme", repo: "widgets", host: "github.com" };
const tool = { version: "9.9.9" };
const done = { terminationReason: "final_review" as const, completed: true, skipped: null };

const finding = (overrides: Partial<Finding> = {}): Finding => ({
  severity: "high",
  title: "Unchecked null dereference of user",
  explanation: "findUser returns null when the id is unknown, and user.name then throws a TypeError.",
  path: "src/a b.ts",
  line: 2,
  evidence: "user.name",
  recommendation: "Check for null.",
  ...overrides,
});

function planned(head: string, findings: Finding[], ledger: LedgerEntry[] = [], verification?: Verification) {
  const lines = head.split("\n").slice(0, -1);
  const patch = `@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join("\n")}`;
  const plan = planReview({
    findings,
    files: [{ filename: "src/a b.ts", patch }],
    headTexts: new Map([["src/a b.ts", head]]),
    minSeverity: "info",
    maxInline: 10,
    alreadyPosted: new Set(),
    repository,
    words: GITHUB_WORDS,
    ledger,
  });
  return reviewedFindings(plan.placed, findings, verification);
}

const sarif = (findings: readonly ReviewedFinding[], outcome: SarifOutcome = done) =>
  JSON.parse(sarifLog(tool, outcome, findings, GITHUB_WORDS)) as {
    runs: {
      results: {
        level: string;
        ruleId: string;
        message: { text: string };
        partialFingerprints: Record<string, string>;
        locations: { physicalLocation: { artifactLocation: { uri: string }; region: object } }[];
        suppressions?: unknown[];
        properties: Record<string, unknown>;
      }[];
      invocations: { executionSuccessful: boolean; properties: Record<string, unknown> }[];
    }[];
  };

const HEAD = "const user = findUser(id);\nreturn user.name;\n";

describe("SARIF for code scanning", () => {
  it("validates against the official schema and GitHub's limits, one result per finding", () => {
    const text = sarifLog(
      tool,
      done,
      planned(HEAD, [finding(), finding({ severity: "low", line: null })]),
      GITHUB_WORDS,
    );
    expect(sarifProblems(text)).toEqual([]);
    const [run] = sarif(planned(HEAD, [finding()])).runs;
    const result = run!.results[0]!;
    expect(result).toMatchObject({ level: "error", ruleId: "loupe/high" });
    expect(result.locations[0]!.physicalLocation).toEqual({
      artifactLocation: { uri: "src/a%20b.ts", uriBaseId: "%SRCROOT%" },
      region: { startLine: 2, endLine: 2 },
    });
    expect(result.properties).toMatchObject({
      "loupe/severity": "high",
      "loupe/verification": "not_verified",
    });
  });

  it("gives a reworded finding moved by an unrelated edit the same partial fingerprint", () => {
    const first = sarif(planned(HEAD, [finding()])).runs[0]!.results[0]!;
    const moved = `// a comment added above\n\n${HEAD}`;
    const reworded = finding({
      line: 4,
      title: "Possible null pointer dereference on user",
      explanation: "When the id is unknown, findUser gives null and reading user.name throws.",
    });
    const second = sarif(planned(moved, [reworded])).runs[0]!.results[0]!;
    expect(second.partialFingerprints).toEqual(first.partialFingerprints);
    expect(first.partialFingerprints[FINGERPRINT_KEY]).toMatch(/^[0-9a-f]{16}$/);
    // Another finding on the same code in the same review is told apart.
    const two = sarif(planned(HEAD, [finding(), finding({ title: "Leaks the user's name to the log" })]));
    const ids = two.runs[0]!.results.map((r) => r.partialFingerprints[FINGERPRINT_KEY]);
    expect(new Set(ids).size).toBe(2);
  });

  it("keeps model text inert: no mention, reference, tag, SARIF link or hidden character", () => {
    const hostile = finding({
      title: "Ping @octocat about #12 <img src=x onerror=alert(1)>",
      explanation:
        "See [the docs](1) and [x](https://evil.example)\u202e\u{E0041}<!-- loupe:fp=0123456789abcdef -->",
    });
    const text = sarif(planned(HEAD, [hostile])).runs[0]!.results[0]!.message.text;
    expect(text).not.toMatch(/@|#12|<img|<!--|\u202e|\u{E0041}/u);
    expect(text).not.toMatch(/(?<!\\)\[/);
    expect(text).toContain("\\[the docs\\](1)");
  });

  it("tells a dismissed finding and the verifier's verdict", () => {
    const ledger: LedgerEntry[] = [
      {
        identity: findingIdentity({ ...finding(), code: "return user.name;" }),
        fingerprint: null,
        status: "dismissed",
        title: "Unchecked null dereference of user",
        path: "src/a b.ts",
        line: 2,
        dismissal: { by: "octocat", at: null, how: "reaction" },
      },
    ];
    const verification = {
      kept: 1,
      unproven: 0,
      refuted: [],
      disputed: [],
      unverified: [],
      unquoted: 0,
      verdicts: ["confirmed" as const],
    };
    const [result] = sarif(planned(HEAD, [finding()], ledger, verification)).runs[0]!.results;
    expect(result!.suppressions).toHaveLength(1);
    expect(result!.properties).toMatchObject({
      "loupe/status": "dismissed",
      "loupe/verification": "confirmed",
    });
  });

  it("says whether the review finished: found nothing, and did not finish, differ", () => {
    const nothing = sarif([]).runs[0]!.invocations[0]!;
    const stopped = sarif([], { terminationReason: "max_rounds", completed: false, skipped: null }).runs[0]!
      .invocations[0]!;
    expect(nothing).toMatchObject({ executionSuccessful: true, properties: { "loupe/completed": true } });
    expect(stopped).toMatchObject({
      executionSuccessful: false,
      properties: { "loupe/completed": false, "loupe/terminationReason": "max_rounds" },
    });
    const stoppedText = sarifLog(
      tool,
      { terminationReason: "max_rounds", completed: false, skipped: null },
      [],
      GITHUB_WORDS,
    );
    expect(sarifProblems(stoppedText)).toEqual([]);
  });

  it("stays within GitHub's limits however many findings there are", () => {
    const one = planned(HEAD, [finding({ explanation: "x".repeat(3000) })])[0]!;
    const many = Array.from({ length: MAX_SARIF_RESULTS + 5 }, (_, i) => ({ ...one, id: `${i}` }));
    const text = sarifLog(tool, done, many, GITHUB_WORDS);
    expect(sarifProblems(text)).toEqual([]);
    expect(text).toContain("findings were left out to fit GitHub's limits");
  });
});

describe("the agents' JSON Schema", () => {
  it("names every termination reason and severity the code has", () => {
    const text = fs.readFileSync(
      path.resolve(import.meta.dirname, "../../../docs/review-result.schema.json"),
      "utf8",
    );
    const schema = reviewResultSchema as {
      properties: { outcome: { properties: { termination_reason: { enum: unknown[] } } } };
      definitions: { finding: { properties: { severity: { enum: unknown[] } } } };
    };
    expect(schema.properties.outcome.properties.termination_reason.enum).toEqual([
      ...TERMINATION_REASONS,
      null,
    ]);
    expect(schema.definitions.finding.properties.severity.enum).toEqual([...SEVERITIES]);
    expect(text.endsWith("\n")).toBe(true);
  });
});
