// The app's own texts for the review body and the check run: the hidden marker, progress, skips
// and the final summary (termination reason value + sentence, findings by severity, figures).
// Model text goes through sanitizeMarkdown; everything else here is static or numeric.

import type { CheckRunOutput } from "../github/check-run.ts";
import type { RoundProgress } from "../llm/types.ts";
import { TERMINATION_SENTENCES } from "../outcome.ts";
import type { PublishPlan } from "../review/plan-types.ts";
import { sanitizeMarkdown } from "../review/sanitize.ts";
import type { RepositoryRef } from "../review/sanitize-prose.ts";
import { SEVERITIES } from "../review/severity.ts";
import type { FinalOutputInput } from "./review-ports.ts";

export function reviewMarker(headSha: string, checkRunId: number): string {
  return `<!-- loupe:review sha=${headSha} run=${checkRunId} -->`;
}

export function renderBody(input: {
  plan: PublishPlan;
  summary: string;
  notes: readonly string[];
  marker: string;
  allInBody: boolean;
  repository: RepositoryRef;
}): string {
  const clean = (text: string, max: number) =>
    sanitizeMarkdown(text, { ...input.repository, maxLength: max });
  const parts = ["### Loupe review", clean(input.summary, 8000)];
  const outside = input.allInBody
    ? [...input.plan.inline.map((c) => c.finding), ...input.plan.outside.map((o) => o.finding)]
    : input.plan.outside.map((o) => o.finding);
  if (outside.length > 0) {
    parts.push(input.allInBody ? "#### Findings" : "#### Findings outside the diff");
    for (const f of outside) {
      const where = f.line === null ? f.path : `${f.path}:${f.line}`;
      parts.push(
        `- **${f.severity}** \`${where.replace(/`/g, "'")}\` — ${clean(f.title, 500)}\n\n  ${clean(f.explanation, 4000)}`,
      );
    }
  }
  if (input.notes.length > 0) parts.push("#### Notes", ...input.notes.map((n) => `- ${clean(n, 2000)}`));
  parts.push(input.marker);
  return parts.join("\n\n").slice(0, 60_000);
}

export function findingsLine(plan: PublishPlan): string {
  const all = [...plan.inline.map((c) => c.finding), ...plan.outside.map((o) => o.finding)];
  const counts = SEVERITIES.map((s) => `${s}: ${all.filter((f) => f.severity === s).length}`).join(", ");
  return `Findings — ${counts} (inline ${plan.inline.length}, in body ${plan.outside.length}, already posted ${plan.duplicates.length}, below threshold ${plan.belowThreshold.length}).`;
}

export function progressOutput(p: RoundProgress): CheckRunOutput {
  return {
    title: `Reviewing: round ${p.round} of ${p.maxRounds}`,
    summary: `Round ${p.round} of ${p.maxRounds}; ${p.toolCalls} tool calls so far; ${p.totalTokens} tokens.`,
  };
}

export function skipOutput(reason: string): CheckRunOutput {
  return { title: "Review skipped", summary: reason };
}

export function finalOutput(input: FinalOutputInput): CheckRunOutput {
  const { result, plan } = input;
  const lines = [
    `**termination_reason**: \`${result.termination_reason}\` — ${TERMINATION_SENTENCES[result.termination_reason]}`,
  ];
  if (input.conclusionNote) lines.push(input.conclusionNote);
  if (plan !== null) lines.push(plan.findingsLine);
  lines.push(
    `Rounds ${result.rounds}; tool calls ${result.tool_calls}; tokens ${result.usage.total_tokens}; ${Math.round(result.duration_ms / 100) / 10} s.`,
    `Files reviewed: ${input.filesReviewed.length}; skipped: ${input.filesSkipped.length}.`,
  );
  const text = result.trace
    ? [
        "| round | finish | action | tool calls |",
        "|---|---|---|---|",
        ...result.trace.map(
          (t) =>
            `| ${t.round} | ${t.finish_reason ?? "-"} | ${t.protocol_action} | ${t.tool_calls.map((c) => c.name).join(", ")} |`,
        ),
      ].join("\n")
    : undefined;
  return {
    title: result.termination_reason === "final_review" ? "Review complete" : "Review incomplete",
    summary: lines.join("\n\n"),
    ...(text === undefined ? {} : { text }),
  };
}
