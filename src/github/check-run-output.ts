// What the check run shows: why the loop stopped (the termination_reason and its static
// sentence), the figures, and the trace as a table. Tool arguments and previews come from the
// model and the repository, so they are shown only inside escaped code spans, redacted, and
// every field stays within GitHub's 65,535-character limit.

import { describeToolCalls } from "../llm/transport/describe.ts";
import type { LoopResult, RoundProgress, Severity, TraceTurn } from "../llm/types.ts";
import { TERMINATION_SENTENCES } from "../outcome.ts";
import { redactSecrets } from "../redact.ts";
import { inlineCode, tableText } from "../review/markdown-text.ts";
import { sanitizeMarkdown } from "../review/sanitize.ts";
import { SEVERITIES } from "../review/severity.ts";
import type { CheckRunOutput } from "./check-run.ts";
import { renderResultDetails } from "./check-run-details.ts";

export const MAX_CHECK_RUN_FIELD = 65535;
const ARGUMENT_PREVIEW = 300;
const TRUNCATED = "\n\n*… (truncated by Loupe: GitHub limits check run text to 65,535 characters)*";

export interface CheckRunOutputInput {
  readonly result: LoopResult;
  readonly conclusion: string;
  readonly findingsBySeverity: Record<Severity, number>;
  readonly filesReviewed: number;
  readonly filesSkipped: number;
  readonly headSha: string;
  /** Loupe's own extra explanation (e.g. "posted in the body after a 422"); sanitised anyway. */
  readonly extraNote?: string;
}

/** A finished review always shows its trace (or why there is none), so `text` is always there. */
export function renderCheckRunOutput(input: CheckRunOutputInput): Required<CheckRunOutput> {
  const { result } = input;
  const total = SEVERITIES.reduce((sum, s) => sum + input.findingsBySeverity[s], 0);
  const summary: string[] = [
    `**Stopped:** \`${result.termination_reason}\` — ${TERMINATION_SENTENCES[result.termination_reason]}`,
  ];
  if (result.retry_after_seconds !== undefined) {
    summary.push(
      `The provider asked Loupe to wait ${Math.round(result.retry_after_seconds)} s before retrying.`,
    );
  }
  summary.push(...renderResultDetails(result));
  const toolCalls = describeToolCalls(result);
  if (toolCalls !== null) summary.push(toolCalls);
  if (input.extraNote !== undefined && input.extraNote.trim() !== "") {
    summary.push(neutral(input.extraNote, 8000));
  }
  summary.push(
    "| Severity | Findings |\n|---|---:|\n" +
      SEVERITIES.map((s) => `| ${s} | ${input.findingsBySeverity[s]} |`).join("\n") +
      `\n| **total** | **${total}** |`,
    "| Rounds | Tool calls | Prompt tokens | Completion tokens | Total tokens | Duration | Files reviewed | Files skipped |\n" +
      "|---:|---:|---:|---:|---:|---:|---:|---:|\n" +
      `| ${result.rounds} | ${result.tool_calls} | ${result.usage.prompt_tokens} | ${result.usage.completion_tokens} | ` +
      `${result.usage.total_tokens} | ${formatDuration(result.duration_ms)} | ${input.filesReviewed} | ${input.filesSkipped} |`,
    `Conclusion: \`${tableText(input.conclusion)}\` · head ${inlineCode(input.headSha)}`,
  );
  return {
    title: renderTitle(result, input.findingsBySeverity, total),
    summary: cap(summary.join("\n\n")),
    text: renderTrace(result.trace),
  };
}

function renderTitle(result: LoopResult, counts: Record<Severity, number>, total: number): string {
  if (result.termination_reason !== "final_review")
    return `Loupe: review incomplete (${result.termination_reason})`;
  if (total === 0) return "Loupe: no findings";
  const top = SEVERITIES.find((s) => counts[s] > 0)!;
  return `Loupe: ${total} finding${total === 1 ? "" : "s"} (${counts[top]} ${top})`;
}

/** The trace table, then each call's arguments; rows are cut from the end to respect the limit. */
export function renderTrace(trace: readonly TraceTurn[] | null): string {
  if (trace === null)
    return "No trace: it is disabled, or the review ended with an error (no partial trace is published).";
  const rows = trace.map(
    (turn) =>
      `| ${turn.round} | ${inlineCode(turn.protocol_action, { inTable: true })} | ${turn.finish_reason === null ? "—" : inlineCode(turn.finish_reason, { inTable: true })} | ` +
      `${turn.tool_calls.map((c) => `${inlineCode(c.name, { inTable: true })} ${c.ok ? "ok" : "error"} ${c.result_bytes} B ${c.duration_ms} ms`).join("<br>") || "—"} | ` +
      `${turn.usage === null ? "—" : turn.usage.total_tokens} |`,
  );
  const calls = trace.flatMap((turn) =>
    turn.tool_calls.map(
      (c) =>
        `| ${turn.round} | ${inlineCode(c.name, { inTable: true })} | ${inlineCode(preview(c.arguments), { inTable: true })} | ${c.truncated ? "yes" : "no"} |`,
    ),
  );
  const sections: string[] = [];
  sections.push(
    "### Trace\n",
    "| Round | Action | finish_reason | Tools (result, bytes, time) | Tokens |",
    "|---:|---|---|---|---:|",
  );
  const tables: [string[], string[]][] = [
    [sections, rows],
    [
      [
        "",
        "### Tool call arguments\n",
        "| Round | Tool | Arguments | Result truncated |",
        "|---:|---|---|---|",
      ],
      calls,
    ],
  ];
  let out = "";
  for (const [header, body] of tables) {
    if (body.length === 0) continue;
    const lines = [...header];
    let length = out.length + lines.join("\n").length;
    let kept = 0;
    for (const row of body) {
      if (length + row.length + 1 + TRUNCATED.length + 100 > MAX_CHECK_RUN_FIELD) break;
      lines.push(row);
      length += row.length + 1;
      kept++;
    }
    out += (out === "" ? "" : "\n") + lines.join("\n");
    if (kept < body.length) return `${out}\n\n*… ${body.length - kept} more rows not shown.*${TRUNCATED}`;
  }
  return out;
}

function preview(value: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(value) ?? "null";
  } catch {
    json = "(unserialisable)";
  }
  const text = redactSecrets(json);
  return text.length > ARGUMENT_PREVIEW ? `${text.slice(0, ARGUMENT_PREVIEW)}…` : text;
}

export function renderProgressOutput(progress: RoundProgress, headSha: string): CheckRunOutput {
  return {
    title: `Loupe: reviewing (round ${progress.round} of ${progress.maxRounds})`,
    summary:
      `Round ${progress.round} of at most ${progress.maxRounds} finished: ${progress.toolCalls} tool calls, ` +
      `${progress.totalTokens} tokens so far.\n\nHead ${inlineCode(headSha)}`,
  };
}

export function renderSkipOutput(reason: string, detail: string): CheckRunOutput {
  const title = `Loupe: skipped (${tableText(reason).slice(0, 100)})`;
  return { title, summary: cap(`**Skipped:** ${inlineCode(reason)}\n\n${neutral(detail, 60000)}`) };
}

/** Loupe's own text may quote a repository (config keys, paths): treat it as untrusted too. */
function neutral(text: string, maxLength: number): string {
  return sanitizeMarkdown(redactSecrets(text), { owner: "", repo: "", host: "", maxLength });
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function cap(text: string): string {
  return text.length <= MAX_CHECK_RUN_FIELD
    ? text
    : text.slice(0, MAX_CHECK_RUN_FIELD - TRUNCATED.length) + TRUNCATED;
}
