// The review body: summary, the findings that could not be inline comments ("Outside the diff"),
// one line each for findings below min_severity and for duplicates, notes, and the hidden
// (head SHA, run) marker. Never longer than GitHub's 65,536 characters: whole findings are left
// out from the end, with a visible line saying how many.

import type { FinalReview, Finding, Severity } from "../llm/types.ts";
import { fingerprintMarker } from "./fingerprint.ts";
import { inlineCode } from "./markdown-text.ts";
import type { PlanOutsideReason, PublishPlan } from "./plan-types.ts";
import { BODY_BUDGETS, renderFindingFields, renderHeading } from "./render-finding.ts";
import { reviewMarker } from "./review-marker.ts";
import { sanitizeMarkdown } from "./sanitize.ts";
import type { RepositoryRef } from "./sanitize-prose.ts";
import { SEVERITIES } from "./severity.ts";

export const MAX_REVIEW_BODY = 65536;

export interface RenderReviewBodyInput {
  readonly review: FinalReview;
  readonly plan: PublishPlan;
  readonly headSha: string;
  readonly checkRunId: number;
  readonly repository: RepositoryRef;
  /** The 422 fallback: the inline comments could not be posted, so every finding goes here. */
  readonly allInBody?: boolean;
}

const REASONS: Readonly<Record<PlanOutsideReason, string>> = {
  file_not_in_diff: "the file is not changed in this pull request",
  no_patch: "GitHub shows no diff for this file (binary, too large, or renamed without changes)",
  line_not_in_diff: "the lines are outside the changed hunks",
  range_spans_hunks: "the lines span several diff hunks",
  no_line: "not tied to a line",
  inline_limit: "over the inline comment limit",
};

export function renderReviewBody(input: RenderReviewBodyInput): string {
  const { review, plan, repository } = input;
  const marker = reviewMarker(input.headSha, input.checkRunId);
  const head: string[] = ["### Loupe review"];
  if (review.summary.trim() !== "")
    head.push(sanitizeMarkdown(review.summary.trim(), { ...repository, maxLength: 8000 }));

  const listed = [
    ...(input.allInBody === true
      ? plan.inline.map((c) => ({ finding: c.finding, fingerprint: c.fingerprint, reason: null }))
      : []),
    ...plan.outside,
  ];
  head.push(countsLine(plan, input.allInBody === true));
  const tail: string[] = [];
  if (plan.belowThreshold.length > 0) tail.push(belowLine(plan.belowThreshold));
  if (plan.duplicates.length > 0) {
    tail.push(
      `${plural(plan.duplicates.length, "finding")} already posted on an earlier commit ${plan.duplicates.length === 1 ? "was" : "were"} skipped.`,
    );
  }
  const notes = renderNotes(review.notes, repository);
  if (notes !== null) tail.push(notes);
  tail.push(marker);

  const blocks = listed.map((entry) =>
    renderListed(entry.finding, entry.reason, entry.fingerprint, repository),
  );
  const section = input.allInBody === true ? "#### Findings" : "#### Outside the diff";
  const fixed = [...head, ...tail].join("\n\n").length + section.length + 200;
  const kept: string[] = [];
  let used = fixed;
  for (const block of blocks) {
    if (used + block.length + 2 > MAX_REVIEW_BODY) break;
    kept.push(block);
    used += block.length + 2;
  }
  const parts = [...head];
  if (blocks.length > 0) parts.push(section, ...kept);
  if (kept.length < blocks.length) {
    parts.push(
      `*… ${plural(blocks.length - kept.length, "more finding")} not shown: the review body is limited to ${MAX_REVIEW_BODY} characters.*`,
    );
  }
  return [...parts, ...tail].join("\n\n");
}

function renderListed(
  finding: Finding,
  reason: PlanOutsideReason | null,
  fingerprint: string,
  repository: RepositoryRef,
): string {
  const where =
    finding.line === null
      ? finding.path
      : `${finding.path}:${finding.line}${typeof finding.end_line === "number" && finding.end_line > finding.line ? `-${finding.end_line}` : ""}`;
  const why = reason === null ? "" : ` (${REASONS[reason]})`;
  return [
    `##### ${renderHeading(finding, repository)}`,
    `${inlineCode(where)}${why}`,
    ...renderFindingFields(finding, repository, BODY_BUDGETS),
    fingerprintMarker(fingerprint),
  ].join("\n\n");
}

/** Notes share a 16,000-character budget so that findings keep most of the body. */
function renderNotes(notes: readonly string[], repository: RepositoryRef): string | null {
  const rendered: string[] = [];
  let used = 0;
  const texts = notes.map((n) => n.trim()).filter((n) => n !== "");
  for (const note of texts) {
    const text = sanitizeMarkdown(note, { ...repository, maxLength: 2000 });
    if (used + text.length > 16000) break;
    rendered.push(`- ${text.replace(/\n/g, "\n  ")}`);
    used += text.length;
  }
  if (rendered.length < texts.length)
    rendered.push(`- *… ${plural(texts.length - rendered.length, "more note")} not shown.*`);
  return rendered.length === 0 ? null : `#### Notes\n\n${rendered.join("\n")}`;
}

function countsLine(plan: PublishPlan, allInBody: boolean): string {
  if (allInBody) {
    return `GitHub did not accept the inline comments, so all ${plural(plan.inline.length + plan.outside.length, "finding")} are listed here.`;
  }
  return `${plural(plan.inline.length, "inline comment")}, ${plural(plan.outside.length, "finding")} outside the diff.`;
}

function belowLine(findings: readonly Finding[]): string {
  const counts = SEVERITIES.map(
    (s: Severity) => [s, findings.filter((f) => f.severity === s).length] as const,
  )
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`);
  return `${plural(findings.length, "finding")} below this repository's \`min_severity\` ${findings.length === 1 ? "is" : "are"} not shown (${counts.join(", ")}).`;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
