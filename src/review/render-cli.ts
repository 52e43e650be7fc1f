// What a person reads after `loupe review --format markdown`: the summary, findings grouped by
// severity with path:line, notes, and why the loop stopped with its static sentence and figures.
// The same inert rendering as on GitHub (the output is often pasted there), with no links kept:
// a local run has no repository on a host to link into.

import type { Finding } from "../domain/finding.ts";
import { SEVERITIES } from "../domain/finding.ts";
import type { ForgeWords } from "../domain/forge-words.ts";
import { terminationSentence } from "../domain/outcome.ts";
import { resultDetails, sameList } from "../llm/result-details.ts";
import { describeToolCalls } from "../llm/transport/describe.ts";
import type { LoopResult } from "../llm/types.ts";
import { serializeBlocks } from "./markdown-serialize.ts";
import { type Block, code, codeBlock, heading, paragraph, strong, text } from "./markdown-tree.ts";
import { sentenceInlines } from "./model-inlines.ts";
import { INLINE_BUDGETS, locationText, renderFindingFields, titleText } from "./render-finding.ts";
import { renderVerification } from "./render-verification.ts";
import { sanitizeBlocks } from "./sanitize.ts";

export function renderCliMarkdown(result: LoopResult, words: ForgeWords): string {
  const out: Block[] = [heading(1, text("Loupe review"))];
  const review = result.review;
  if (review !== null) {
    out.push(...sanitizeBlocks(review.summary, null, 8000));
    out.push(heading(2, text(`Findings (${review.findings.length})`)));
    if (review.findings.length === 0) out.push(paragraph(text("No findings.")));
    for (const severity of SEVERITIES) {
      const group = review.findings.filter((finding) => finding.severity === severity);
      if (group.length === 0) continue;
      out.push(heading(3, text(severity)));
      for (const finding of group) out.push(...renderFinding(finding));
    }
    const notes = review.notes.filter((note) => note.trim() !== "");
    if (notes.length > 0)
      out.push(heading(2, text("Notes")), ...notes.flatMap((note) => sanitizeBlocks(note, null, 2000)));
  }
  out.push(
    heading(2, text("Outcome")),
    paragraph(
      code(result.termination_reason),
      text(`: ${terminationSentence(result.termination_reason, words)}`),
    ),
    paragraph(
      text(
        `Rounds: ${result.rounds} · tool calls: ${result.tool_calls} · tokens: ${result.usage.total_tokens} · ${(result.duration_ms / 1000).toFixed(1)} s`,
      ),
    ),
  );
  const toolCalls = describeToolCalls(result);
  if (toolCalls !== null) out.push(paragraph(text(toolCalls)));
  if (result.retry_after_seconds !== undefined)
    out.push(paragraph(text(`The provider asked to retry after ${result.retry_after_seconds} s.`)));
  out.push(...renderDetails(result));
  // How the review ended comes first; what the verification pass did to its findings after it.
  const verification = renderVerification(result, words);
  if (verification.length > 0) out.push(heading(2, text("Verification")), ...verification);
  return `${serializeBlocks(out)}\n`;
}

function renderDetails(result: LoopResult): Block[] {
  const details = resultDetails(result);
  const list = (failures: readonly string[]) =>
    failures.map((failure) => paragraph(text("• "), code(failure)));
  const out: Block[] = [];
  if (details.providerHint !== null)
    out.push(paragraph(text("What to check: "), ...sentenceInlines(details.providerHint)));
  if (details.repair !== null)
    out.push(
      paragraph(text("Repair round: "), ...sentenceInlines(details.repair)),
      ...list(details.repairFailures),
    );
  if (details.failures.length > 0 && !sameList(details.failures, details.repairFailures)) {
    out.push(paragraph(text("Checks the final review failed:")), ...list(details.failures));
  }
  return out;
}

function renderFinding(finding: Finding): Block[] {
  const blocks: Block[] = [
    paragraph(
      strong(text(titleText(finding.title, INLINE_BUDGETS.title))),
      text(" — "),
      code(locationText(finding)),
    ),
    ...renderFindingFields(finding, null, INLINE_BUDGETS),
  ];
  if (typeof finding.suggestion === "string" && finding.suggestion.trim() !== "")
    blocks.push(paragraph(strong(text("Suggestion"))), codeBlock(finding.suggestion));
  return blocks;
}
