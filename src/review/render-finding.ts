// The parts of one finding as Markdown blocks, shared by inline comments and the review body. The
// title is one line of escaped text; every other model-written field is rendered from its own
// tree (sanitize.ts) within its own length budget.

import type { Dispute, Finding } from "../domain/finding.ts";
import { cutCodePoints } from "../domain/text.ts";
import { escapeText } from "./markdown-escape.ts";
import { type Block, codeBlock, emphasis, type Inline, paragraph, strong, text } from "./markdown-tree.ts";
import { cut, listedText } from "./render-verification.ts";
import type { RepositoryRef } from "./repository-link.ts";
import { sanitizeBlocks } from "./sanitize.ts";
import { severityBadge } from "./severity.ts";
import { neutralReferences } from "./wide-references.ts";

export interface FieldBudgets {
  readonly title: number;
  readonly explanation: number;
  readonly evidence: number;
  readonly recommendation: number;
}

export const INLINE_BUDGETS: FieldBudgets = {
  title: 300,
  explanation: 16000,
  evidence: 12000,
  recommendation: 12000,
};
export const BODY_BUDGETS: FieldBudgets = {
  title: 300,
  explanation: 3000,
  evidence: 2000,
  recommendation: 2000,
};

/** The title as one line of text whose escaped form is at most `budget` characters. */
export function titleText(title: string, budget: number): string {
  // Escaping never shortens a title, so more than `budget` units of it can never be shown.
  const trimmed = title.trimStart();
  const head = cutCodePoints(trimmed, budget + 1);
  const oneLine = head.replace(/\s+/g, " ").trim() || "(untitled)";
  if (head.length === trimmed.length && escapeText(oneLine, { oneLine: true }).length <= budget)
    return oneLine;
  let low = 0;
  let high = oneLine.length;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    const fits = escapeText(`${cutCodePoints(oneLine, mid)}…`, { oneLine: true }).length <= budget;
    if (fits) low = mid;
    else high = mid - 1;
  }
  return `${cutCodePoints(oneLine, low).trimEnd()}…`;
}

/** path:line or path:line-end, the path cut to 300 characters (it is the model's text too). */
export function locationText(finding: Finding): string {
  const path = finding.path.length > 300 ? `${cutCodePoints(finding.path, 300)}…` : finding.path;
  if (finding.line === null) return path;
  const end =
    typeof finding.end_line === "number" && finding.end_line > finding.line ? `-${finding.end_line}` : "";
  return `${path}:${finding.line}${end}`;
}

/** Explanation, evidence and recommendation, each omitted when empty. */
export function renderFindingFields(
  finding: Finding,
  repository: RepositoryRef | null,
  budgets: FieldBudgets,
): Block[] {
  const blocks: Block[] = [];
  const field = (label: string | null, value: string, budget: number) => {
    if (value.trim() === "") return;
    if (label !== null) blocks.push(paragraph(strong(text(label))));
    blocks.push(...sanitizeBlocks(value.trim(), repository, budget));
  };
  if (finding.disputed !== undefined) blocks.push(...disputeBlocks(finding.disputed, repository));
  field(null, finding.explanation, budgets.explanation);
  field("Evidence", finding.evidence, budgets.evidence);
  field("Recommendation", finding.recommendation, budgets.recommendation);
  return blocks;
}

const DISPUTED =
  "Disputed: Loupe's verifier quoted head code it says refutes this finding. It is posted because of its severity; a writer can dismiss it if the verifier is right.";

/**
 * The verifier's refutation of a finding too severe to hold back: its reason (one line, like the
 * title) and quote, inert.
 */
function disputeBlocks(dispute: Dispute, repository: RepositoryRef | null): Block[] {
  return [
    paragraph(emphasis(text(DISPUTED))),
    paragraph(
      strong(text("Verifier")),
      text(` — ${listedText(dispute.reason, 600, repository?.references)}`),
    ),
    codeBlock(cut(dispute.quote, 1_500)),
  ];
}

/** Severity badge · title, as the inline content of a heading or a paragraph. */
export function headingInlines(
  finding: Finding,
  budgets: FieldBudgets,
  repository: RepositoryRef | null = null,
): Inline[] {
  const [emoji, label] = severityBadge(finding.severity);
  const title = titleText(finding.title, budgets.title);
  const shown = repository?.references === "wide" ? neutralReferences(title) : title;
  return [text(`${emoji} `), strong(text(label)), text(` · ${shown}`)];
}
