// `loupe review --format markdown`: why the loop stopped (the loop result's own rendering), then
// what the App would post for it: the review body exactly as the App renders it (summary,
// "Outside the diff", notes) and each inline comment with the line it would be anchored to.

import type { ReviewCoverage } from "../domain/coverage.ts";
import { type Cost, describeSpend } from "../domain/spend.ts";
import { LOCAL_WORDS } from "../forges/local/words.ts";
import type { LoopResult } from "../llm/types.ts";
import type { PlannedReview } from "../pipeline/review-ports.ts";
import { renderCoverage } from "../report/coverage-output.ts";
import { codeSpan } from "../review/markdown-escape.ts";
import { serializeBlocks } from "../review/markdown-serialize.ts";
import { renderCliMarkdown as renderResultMarkdown } from "../review/render-cli.ts";
import { stripHiddenMarkers } from "../review/strip-markers.ts";

export interface RenderLocalReviewInput {
  readonly result: LoopResult;
  readonly cost: Cost;
  readonly plan: PlannedReview | null;
  readonly configuration: string;
  readonly filesReviewed: number;
  readonly filesLeftOut: number;
  /** Which repository guidance files the model was given (describe-guidance.ts). */
  readonly guidance?: string;
  /** A change reviewed in passes: the same coverage the App's check run shows. */
  readonly coverage?: ReviewCoverage;
}

export function renderLocalReviewMarkdown(input: RenderLocalReviewInput): string {
  const out = [renderResultMarkdown({ ...input.result, review: null }, LOCAL_WORDS).trimEnd(), ""];
  const leftOut = input.filesLeftOut > 0 ? ` (${input.filesLeftOut} left out: deleted, or by \`paths\`)` : "";
  out.push(`Configuration: ${input.configuration}. Files reviewed: ${input.filesReviewed}${leftOut}.`);
  out.push("", describeSpend(input.result.spend, input.cost));
  if (input.guidance !== undefined) out.push("", input.guidance);
  if (input.coverage !== undefined)
    out.push("", serializeBlocks(renderCoverage(input.coverage, LOCAL_WORDS)));
  const plan = input.plan;
  if (plan !== null) {
    out.push("", `Findings: ${plan.placement}`, "");
    if (!plan.postable) {
      out.push("The App would post no review (nothing to say); its check run would carry the outcome.", "");
    } else {
      out.push("## The review the App would post", "", stripHiddenMarkers(plan.body), "");
      out.push(`## Inline comments the App would post (${plan.comments.length})`, "");
      for (const comment of plan.comments) {
        const lines =
          comment.startLine === undefined ? `${comment.line}` : `${comment.startLine}-${comment.line}`;
        out.push(`### ${codeSpan(`${comment.path}:${lines}`)}`, "", stripHiddenMarkers(comment.body), "");
      }
    }
  }
  return `${out.join("\n").trimEnd()}\n`;
}

export function renderSkipMarkdown(configuration: string, detail: string): string {
  return `# Loupe review\n\nThe App would not review this change: ${detail}\n\nConfiguration: ${configuration}.\n`;
}
