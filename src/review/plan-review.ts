// Sorts every finding of a final review into exactly one bucket — inline comment, review body
// ("outside"), below the repository's min_severity, or already posted — so nothing is dropped
// silently. Higher severities get the inline slots first when maxInline is reached.

import type { Finding, Severity } from "../domain/finding.ts";
import { anchorFinding, findingCode } from "./anchor-finding.ts";
import { fingerprintFinding } from "./fingerprint.ts";
import { parsePatch } from "./patch-hunks.ts";
import type { ChangedFile, PlannedComment, PlannedOutside, PublishPlan } from "./plan-types.ts";
import { renderInlineComment } from "./render-inline.ts";
import type { RepositoryRef } from "./repository-link.ts";
import { isAtLeast, severityRank } from "./severity.ts";

export interface PlanReviewInput {
  readonly findings: readonly Finding[];
  readonly files: readonly ChangedFile[];
  readonly headTexts: ReadonlyMap<string, string>;
  readonly minSeverity: Severity;
  readonly maxInline: number;
  /** Fingerprints found in Loupe's earlier comments and review bodies on this pull request. */
  readonly alreadyPosted: ReadonlySet<string>;
  readonly repository: RepositoryRef;
}

export function planReview(input: PlanReviewInput): PublishPlan {
  const plan: PublishPlan = {
    inline: [],
    outside: [],
    belowThreshold: [],
    duplicates: [],
    raised: new Set(),
  };
  const files = new Map(input.files.map((file) => [file.filename, file]));
  const seen = new Set<string>();
  // Stable sort: the model's order is kept within one severity.
  const ordered = input.findings
    .map((finding, index) => ({ finding, index }))
    .sort((a, b) => severityRank(b.finding.severity) - severityRank(a.finding.severity) || a.index - b.index)
    .map((entry) => entry.finding);
  for (const finding of ordered) {
    if (!isAtLeast(finding.severity, input.minSeverity)) {
      plan.belowThreshold.push(finding);
      continue;
    }
    const file = files.get(finding.path);
    const headText = input.headTexts.get(finding.path);
    const anchor = anchorFinding(finding, file, headText);
    const code =
      anchor.kind === "inline"
        ? anchor.anchoredCode
        : findingCode(finding, headText, parsePatch(file?.patch ?? ""));
    const fingerprint = fingerprintFinding(finding.path, code, finding.title);
    plan.raised.add(fingerprint);
    if (input.alreadyPosted.has(fingerprint) || seen.has(fingerprint)) {
      plan.duplicates.push(finding);
      continue;
    }
    seen.add(fingerprint);
    if (anchor.kind === "outside") {
      plan.outside.push({ finding, reason: anchor.reason, fingerprint });
    } else if (plan.inline.length >= input.maxInline) {
      plan.outside.push({ finding, reason: "inline_limit", fingerprint } satisfies PlannedOutside);
    } else {
      const body = renderInlineComment(finding, anchor, fingerprint, anchor.fullRange, input.repository);
      const range =
        anchor.startLine === undefined ? {} : { start_line: anchor.startLine, start_side: "RIGHT" as const };
      plan.inline.push({
        path: anchor.path,
        line: anchor.line,
        ...range,
        side: "RIGHT",
        body,
        fingerprint,
        finding,
      } satisfies PlannedComment);
    }
  }
  return plan;
}
