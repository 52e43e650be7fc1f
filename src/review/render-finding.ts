// The parts of one finding as Markdown, shared by inline comments and the review body. Every
// model-written field goes through the sanitiser with its own length budget.

import type { Finding } from "../llm/types.ts";
import { sanitizeMarkdown } from "./sanitize.ts";
import type { RepositoryRef } from "./sanitize-prose.ts";
import { severityBadge } from "./severity.ts";

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

export function renderTitle(finding: Finding, repository: RepositoryRef): string {
  const oneLine = finding.title.replace(/\s*\n\s*/g, " ").trim();
  return sanitizeMarkdown(oneLine === "" ? "(untitled)" : oneLine, { ...repository, maxLength: 300 });
}

/** Explanation, evidence and recommendation, each omitted when empty. */
export function renderFindingFields(
  finding: Finding,
  repository: RepositoryRef,
  budgets: FieldBudgets,
): string[] {
  const parts: string[] = [];
  const field = (text: string, maxLength: number) =>
    sanitizeMarkdown(text.trim(), { ...repository, maxLength });
  if (finding.explanation.trim() !== "") parts.push(field(finding.explanation, budgets.explanation));
  if (finding.evidence.trim() !== "")
    parts.push(`**Evidence**\n\n${field(finding.evidence, budgets.evidence)}`);
  if (finding.recommendation.trim() !== "") {
    parts.push(`**Recommendation**\n\n${field(finding.recommendation, budgets.recommendation)}`);
  }
  return parts;
}

export function renderHeading(finding: Finding, repository: RepositoryRef): string {
  return `${severityBadge(finding.severity)} · ${renderTitle(finding, repository)}`;
}
