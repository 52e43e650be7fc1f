// What a person reads after `loupe review --format markdown`: the summary, findings grouped by
// severity with path:line, notes, and why the loop stopped with its static sentence and figures.

import { TERMINATION_SENTENCES } from "../outcome.ts";
import { resultDetails, sameList } from "./result-details.ts";
import { describeToolCalls } from "./transport/describe.ts";
import type { Finding, LoopResult, Severity } from "./types.ts";

const ORDER: readonly Severity[] = ["critical", "high", "medium", "low", "info"];

export function renderResultMarkdown(result: LoopResult): string {
  const out: string[] = ["# Loupe review", ""];
  const review = result.review;
  if (review !== null) {
    out.push(review.summary, "");
    out.push(`## Findings (${review.findings.length})`, "");
    if (review.findings.length === 0) out.push("No findings.", "");
    for (const severity of ORDER) {
      const group = review.findings.filter((finding) => finding.severity === severity);
      if (group.length === 0) continue;
      out.push(`### ${severity}`, "");
      for (const finding of group) out.push(...renderFinding(finding), "");
    }
    if (review.notes.length > 0) out.push("## Notes", "", ...review.notes.map((note) => `- ${note}`), "");
  }
  out.push(
    "## Outcome",
    "",
    `\`${result.termination_reason}\`: ${TERMINATION_SENTENCES[result.termination_reason]}`,
    "",
    `Rounds: ${result.rounds} · tool calls: ${result.tool_calls} · tokens: ${result.usage.total_tokens} · ${(result.duration_ms / 1000).toFixed(1)} s`,
  );
  const toolCalls = describeToolCalls(result);
  if (toolCalls !== null) out.push(toolCalls);
  if (result.retry_after_seconds !== undefined)
    out.push(`The provider asked to retry after ${result.retry_after_seconds} s.`);
  out.push(...renderDetails(result));
  return `${out.join("\n")}\n`;
}

function renderFinding(finding: Finding): string[] {
  const end = finding.end_line ?? null;
  const where =
    finding.line === null
      ? finding.path
      : `${finding.path}:${finding.line}${end !== null && end !== finding.line ? `-${end}` : ""}`;
  const lines = [
    `- **${finding.title}** — \`${where}\``,
    `  ${finding.explanation}`,
    `  Evidence: ${finding.evidence}`,
    `  Recommendation: ${finding.recommendation}`,
  ];
  if (typeof finding.suggestion === "string") lines.push(`  Suggestion: ${finding.suggestion}`);
  return lines;
}

function renderDetails(result: LoopResult): string[] {
  const details = resultDetails(result);
  const list = (failures: readonly string[]) => failures.map((failure) => `- \`${failure}\``);
  const out: string[] = [];
  if (details.providerHint !== null) out.push("", `What to check: ${details.providerHint}`);
  if (details.repair !== null)
    out.push("", `Repair round: ${details.repair}`, "", ...list(details.repairFailures));
  if (details.failures.length > 0 && !sameList(details.failures, details.repairFailures)) {
    out.push("", "Checks the final review failed:", "", ...list(details.failures));
  }
  return out;
}
