// A final review of 100 long findings whose body, as Loupe renders it, ends just under GitHub's
// 65,536 characters before anything is added after it: the shape in which a marker appended
// after the body was cut pushed it over the limit, and GitHub refused the review (422). The
// summary's length is chosen by rendering the body the way the publisher does.

import type { Finding } from "../../src/domain/finding.ts";
import { GITHUB_WORDS } from "../../src/forges/github/words.ts";
import { findingIdentity } from "../../src/review/finding-identity.ts";
import type { PublishPlan } from "../../src/review/plan-types.ts";
import { MAX_REVIEW_BODY, renderReviewBody } from "../../src/review/render-body.ts";
import type { RepositoryRef } from "../../src/review/repository-link.ts";
import { finding } from "./chat-turns.ts";

/** Shorter than any of Loupe's markers. */
export const SLACK = 40;

export interface LongReviewInput {
  /** How many of the findings are on a changed line (the rest have no line). */
  readonly inline: number;
  /** Tune the 422 fallback's body (every finding in it) rather than the first one. */
  readonly allInBody: boolean;
  readonly headSha: string;
  readonly checkRunId: number;
  readonly repository: RepositoryRef;
}

export interface LongReview {
  readonly summary: string;
  readonly findings: readonly Record<string, unknown>[];
  /** The body as rendered with these markers after it (what the publisher should post). */
  render(trailingMarkers: readonly string[]): string;
}

export function longReview(input: LongReviewInput): LongReview {
  for (let variant = 0; variant < 20; variant++) {
    const findings = Array.from({ length: 100 }, (_, i) =>
      finding({
        title: `Finding ${i} about the write path`,
        line: i < input.inline ? 2 : null,
        explanation: `Explanation ${i}: ${"the write happens before validation. ".repeat(100 + variant)}`,
        // A quote of the fixture's head (validation checks it); the other fields make the length.
        evidence: "db.write(record);",
        recommendation: "Validate the record before saving it. ".repeat(70),
      }),
    );
    const render = (summary: string, trailingMarkers: readonly string[]) =>
      renderBody(input, findings as unknown as Finding[], summary, trailingMarkers);
    const slack = MAX_REVIEW_BODY - render("x", []).length;
    const summary = "x".repeat(1 + slack - SLACK);
    if (summary.length > 7000 || slack <= SLACK) continue;
    if (render(summary, []).length !== MAX_REVIEW_BODY - SLACK) continue;
    return { summary, findings, render: (markers) => render(summary, markers) };
  }
  throw new Error("no variant of the long review ends just under the limit");
}

/** renderReviewBody on the plan planReview makes of these findings (all high, distinct titles). */
function renderBody(
  input: LongReviewInput,
  findings: Finding[],
  summary: string,
  trailingMarkers: readonly string[],
): string {
  const fingerprint = "0".repeat(16); // fixed length: the value does not change the body's length
  // The identity's length depends only on the words of the claim, not on the code.
  const identity = (f: Finding) => findingIdentity({ ...f, code: "" });
  const plan: PublishPlan = {
    inline: findings.slice(0, input.inline).map((f) => ({
      path: f.path,
      line: f.line!,
      side: "RIGHT" as const,
      body: "",
      fingerprint,
      finding: f,
      identity: identity(f),
    })),
    outside: findings
      .slice(input.inline)
      .map((f) => ({ finding: f, reason: "no_line" as const, fingerprint, identity: identity(f) })),
    belowThreshold: [],
    duplicates: [],
    dismissed: [],
    raised: new Set(),
    placed: [],
  };
  return renderReviewBody({
    review: { summary, findings, notes: [] },
    plan,
    headSha: input.headSha,
    checkRunId: input.checkRunId,
    repository: input.repository,
    words: GITHUB_WORDS,
    allInBody: input.allInBody,
    trailingMarkers,
  });
}
