// What a review's report shows (a check run, or a summary note): why the loop stopped, the figures,
// the trace as a table. Tool arguments and previews come from the model and the repository: only in
// escaped code spans, redacted, every field within 65,535 characters (GitHub's limit, the lowest),
// built as a Markdown tree and serialized by the same inert writer as review comments.

import type { ReviewCoverage } from "../domain/coverage.ts";
import type { Severity } from "../domain/finding.ts";
import { SEVERITIES } from "../domain/finding.ts";
import type { ForgeWords } from "../domain/forge-words.ts";
import { terminationSentence } from "../domain/outcome.ts";
import { redactSecrets } from "../domain/redact.ts";
import type { SettingNames } from "../domain/setting-names.ts";
import { type Cost, describeSpend } from "../domain/spend.ts";
import { cutCodePoints } from "../domain/text.ts";
import { describeToolCalls } from "../llm/transport/describe.ts";
import type { LoopResult, TraceTurn } from "../llm/types.ts";
import { fitBlocks } from "../review/fit-blocks.ts";
import { type LedgerSummary, ledgerBlocks } from "../review/ledger.ts";
import { escapeText } from "../review/markdown-escape.ts";
import { serializeBlocks, tableRow } from "../review/markdown-serialize.ts";
import { type Block, code, emphasis, type Inline, paragraph, strong, text } from "../review/markdown-tree.ts";
import { renderVerification } from "../review/render-verification.ts";
import { sanitizeBlocks } from "../review/sanitize.ts";
import { neutralBlocks, type ReferenceSyntax } from "../review/wide-references.ts";
import { renderResultDetails } from "./check-run-details.ts";
import { coverageTitle, renderCoverage } from "./coverage-output.ts";
import type { CheckRunOutput } from "./review-report.ts";

export const MAX_CHECK_RUN_FIELD = 65535;
const ARGUMENT_PREVIEW = 300;
const TRUNCATED = paragraph(emphasis(text("… (truncated by Loupe to fit a report's 65,535 characters)")));

export interface CheckRunOutputInput {
  readonly result: LoopResult;
  /** How the report names the forge that shows it. */
  readonly words: ForgeWords;
  /** The check's conclusion, where the forge shows one beside the report (a commit status has its own). */
  readonly conclusion?: string;
  readonly findingsBySeverity: Record<Severity, number>;
  readonly filesReviewed: number;
  readonly filesSkipped: number;
  readonly headSha: string;
  /** Loupe's own extra explanation (e.g. "posted in the body after a 422"); sanitised anyway. */
  readonly extraNote?: string;
  /** What the review's spend cost; absent where a caller knows no prices (a bare renderer). */
  readonly cost?: Cost;
  /** The pull request's finding ledger after this review, when the host keeps one. */
  readonly ledger?: LedgerSummary;
  /** A review in passes: what each pass covered, and the files none did. */
  readonly coverage?: ReviewCoverage;
  /** How texts name settings (the Action's inputs); absent: environment variables. */
  readonly names?: SettingNames;
  /** Ends the text (the agents' hidden JSON block): the trace gives way to it. */
  readonly machineBlock?: string;
  /** The host's references when the text is also a note there (GitLab's summary note). */
  readonly references?: ReferenceSyntax;
}

/** A finished review always shows its trace (or why there is none), so `text` is always there. */
export function renderCheckRunOutput(input: CheckRunOutputInput): Required<CheckRunOutput> {
  const { result } = input;
  const total = SEVERITIES.reduce((sum, s) => sum + input.findingsBySeverity[s], 0);
  const reason = result.termination_reason;
  const summary: Block[] = [
    paragraph(
      strong(text("Stopped:")),
      text(" "),
      code(reason),
      text(` — ${terminationSentence(reason, input.words)}`),
    ),
  ];
  if (result.retry_after_seconds !== undefined) {
    const seconds = Math.round(result.retry_after_seconds);
    summary.push(paragraph(text(`The provider asked Loupe to wait ${seconds} s before retrying.`)));
  }
  summary.push(
    ...renderResultDetails(result, input.names),
    ...renderVerification(result, input.words, input.references),
  );
  const toolCalls = describeToolCalls(result, input.names);
  if (toolCalls !== null) summary.push(paragraph(text(toolCalls)));
  if (input.ledger !== undefined) summary.push(...ledgerBlocks(input.ledger, input.references));
  if (input.extraNote !== undefined && input.extraNote.trim() !== "") {
    summary.push(...neutral(input.extraNote, 8000, input.references));
  }
  if (input.coverage !== undefined) summary.push(...renderCoverage(input.coverage, input.words));
  const u = result.usage;
  summary.push(
    {
      type: "table",
      align: ["left", "right"],
      header: ["Severity", "Findings"],
      rows: [
        ...SEVERITIES.map((s) => [[text(s)], [text(String(input.findingsBySeverity[s]))]]),
        [[strong(text("total"))], [strong(text(String(total)))]],
      ],
    },
    {
      type: "table",
      align: Array(8).fill("right"),
      header: [
        "Rounds",
        "Tool calls",
        "Prompt tokens",
        "Completion tokens",
        "Total tokens",
        "Duration",
      ].concat(["Files reviewed", "Files skipped"]),
      rows: [
        [result.rounds, result.tool_calls, u.prompt_tokens, u.completion_tokens, u.total_tokens]
          .map((n) => [text(String(n))])
          .concat([[text(formatDuration(result.duration_ms))]])
          .concat([[text(String(input.filesReviewed))], [text(String(input.filesSkipped))]]),
      ],
    },
    ...(input.cost === undefined
      ? []
      : [paragraph(text(describeSpend(result.spend, input.cost, input.names)))]),
    paragraph(...conclusionInlines(input.conclusion), code(input.headSha)),
  );
  return {
    title: renderTitle(result, input.findingsBySeverity, total, input.ledger) + coverageTitle(input.coverage),
    summary: serializeBlocks(fitBlocks(summary, MAX_CHECK_RUN_FIELD)),
    text: withMachineBlock(
      renderTrace(result.trace, MAX_CHECK_RUN_FIELD - blockRoom(input.machineBlock)),
      input.machineBlock,
    ),
  };
}

function conclusionInlines(conclusion: string | undefined): Inline[] {
  return conclusion === undefined
    ? [text("Head ")]
    : [text("Conclusion: "), code(conclusion), text(" · head ")];
}

function renderTitle(
  result: LoopResult,
  counts: Record<Severity, number>,
  total: number,
  ledger: LedgerSummary | undefined,
): string {
  if (result.termination_reason !== "final_review")
    return `Loupe: review incomplete (${result.termination_reason})`;
  const known = ledger === undefined ? 0 : ledger.counts.open + ledger.counts.dismissed;
  if (ledger !== undefined && ledger.fresh === 0 && total + known > 0) {
    return `Loupe: no new findings (${ledger.counts.open} open, ${ledger.counts.dismissed} dismissed)`;
  }
  if (total === 0) return "Loupe: no findings";
  const top = SEVERITIES.find((s) => counts[s] > 0)!;
  return `Loupe: ${total} finding${total === 1 ? "" : "s"} (${counts[top]} ${top})`;
}

type Row = (readonly Inline[])[];

const blockRoom = (block: string | undefined) => (block === undefined ? 0 : block.length + 2);

/** A block after the text, on its own after a blank line: it never joins the trace's last table. */
export function withMachineBlock(text: string, block: string | undefined): string {
  return block === undefined ? text : `${text}\n\n${block}`;
}

/** The trace table, then each call's arguments; rows are cut from the end to respect `limit`. */
export function renderTrace(trace: readonly TraceTurn[] | null, limit = MAX_CHECK_RUN_FIELD): string {
  if (trace === null)
    return "No trace: it is disabled, or the review ended with an error (no partial trace is published).";
  const rows: Row[] = trace.map((turn) => [
    [text(String(turn.round))],
    [code(turn.protocol_action)],
    turn.finish_reason === null ? [] : [code(turn.finish_reason)],
    turn.tool_calls.flatMap((c, i) => [
      ...(i > 0 ? [text("; ")] : []),
      code(c.name),
      text(` ${c.ok ? "ok" : "error"} ${c.result_bytes} B ${c.duration_ms} ms`),
    ]),
    [text(turn.usage === null ? "—" : String(turn.usage.total_tokens))],
  ]);
  const calls: Row[] = trace.flatMap((turn) =>
    turn.tool_calls.map((c) => [
      [text(String(turn.round))],
      [code(c.name)],
      [code(preview(c.arguments))],
      [text(c.truncated ? "yes" : "no")],
    ]),
  );
  const tables: [string, string[], Row[]][] = [
    ["Trace", ["Round", "Action", "finish_reason", "Tools (result, bytes, time)", "Tokens"], rows],
    ["Tool call arguments", ["Round", "Tool", "Arguments", "Result truncated"], calls],
  ];
  const aligns: Record<string, string> = { Round: "---:", Tokens: "---:" };
  const reserve = serializeBlocks([TRUNCATED]).length + 100;
  let out = "";
  for (const [title, header, body] of tables) {
    if (body.length === 0) continue;
    const head = [
      `${out === "" ? "" : "\n\n"}### ${title}\n`,
      `| ${header.map((h) => escapeText(h, { oneLine: true, inTable: true })).join(" | ")} |`,
      `|${header.map((h) => aligns[h] ?? "---").join("|")}|`,
    ].join("\n");
    out += head;
    let kept = 0;
    for (const row of body) {
      // Each row is one line of escaped cells, so a cut between rows leaves a whole table.
      const line = `\n${tableRow(row)}`;
      if (out.length + line.length + reserve > limit) break;
      out += line;
      kept++;
    }
    if (kept < body.length) {
      const more = paragraph(emphasis(text(`… ${body.length - kept} more rows not shown.`)));
      return `${out}\n\n${serializeBlocks([more, TRUNCATED])}`;
    }
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
  return text.length > ARGUMENT_PREVIEW ? `${cutCodePoints(text, ARGUMENT_PREVIEW)}…` : text;
}

export function renderSkipOutput(reason: string, detail: string): CheckRunOutput {
  const oneLine = reason.replace(/\s+/g, " ");
  const title = `Loupe: skipped (${cutCodePoints(oneLine, 100)})`;
  const summary = [paragraph(strong(text("Skipped:")), text(" "), code(reason)), ...neutral(detail, 60000)];
  return { title, summary: serializeBlocks(fitBlocks(summary, MAX_CHECK_RUN_FIELD)) };
}

/** Loupe's own text may quote a repository (config keys, paths): treat it as untrusted too. */
function neutral(text: string, maxLength: number, references?: ReferenceSyntax): Block[] {
  const blocks = sanitizeBlocks(redactSecrets(text), null, maxLength);
  return references === "wide" ? neutralBlocks(blocks) : blocks;
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
