// The review body: summary, the findings that could not be inline comments ("Outside the diff"),
// one line each for findings below min_severity and for duplicates, notes, and the hidden
// (head SHA, run) marker, then any other marker the publisher adds. Never longer than GitHub's
// 65,536 characters, markers included: whole findings are left out from the end, with a visible
// line saying how many (everything else has budgets that leave findings most of the room).

import type { FinalReview, Finding, Severity } from "../domain/finding.ts";
import { SEVERITIES } from "../domain/finding.ts";
import type { ForgeWords } from "../domain/forge-words.ts";
import { type FindingIdentity, identityMarker } from "./finding-identity.ts";
import { fingerprintMarker } from "./fingerprint.ts";
import { serializeBlocks } from "./markdown-serialize.ts";
import { type Block, code, emphasis, heading, hiddenMarker, paragraph, text } from "./markdown-tree.ts";
import type { PlanOutsideReason, PublishPlan } from "./plan-types.ts";
import { BODY_BUDGETS, headingInlines, locationText, renderFindingFields } from "./render-finding.ts";
import type { RepositoryRef } from "./repository-link.ts";
import { reviewMarker } from "./review-marker.ts";
import { sanitizeBlocks } from "./sanitize.ts";

export const MAX_REVIEW_BODY = 65536;

export interface RenderReviewBodyInput {
  readonly review: FinalReview;
  readonly plan: PublishPlan;
  readonly headSha: string;
  readonly checkRunId: number;
  readonly repository: RepositoryRef;
  /** The forge's words: who refused the inline comments, what the change is called. */
  readonly words: ForgeWords;
  /** The 422 fallback: the inline comments could not be posted, so every finding goes here. */
  readonly allInBody?: boolean;
  /** Other hidden markers to end the body with (the reviewed marker): counted in its limit. */
  readonly trailingMarkers?: readonly string[];
}

const reasons = (words: ForgeWords): Readonly<Record<PlanOutsideReason, string>> => ({
  file_not_in_diff: `the file is not changed in this ${words.change}`,
  no_patch: `${words.forge} shows no diff for this file (binary, too large, or renamed without changes)`,
  line_not_in_diff: "the lines are outside the changed hunks",
  range_spans_hunks: "the lines span several diff hunks",
  no_line: "not tied to a line",
  inline_limit: "over the inline comment limit",
});

export function renderReviewBody(input: RenderReviewBodyInput): string {
  const { review, plan, repository } = input;
  const allInBody = input.allInBody === true;
  const head: Block[] = [heading(3, text("Loupe review"))];
  if (review.summary.trim() !== "") head.push(...sanitizeBlocks(review.summary.trim(), repository, 8000));
  head.push(paragraph(text(countsLine(plan, allInBody, input.words))));

  const listed = [
    ...(allInBody
      ? plan.inline.map((c) => ({
          finding: c.finding,
          fingerprint: c.fingerprint,
          identity: c.identity,
          reason: null,
        }))
      : []),
    ...plan.outside,
  ];
  const tail: Block[] = [];
  if (plan.belowThreshold.length > 0) tail.push(belowLine(plan.belowThreshold));
  if (plan.duplicates.length > 0) {
    const n = plan.duplicates.length;
    tail.push(
      paragraph(
        text(
          `${plural(n, "finding")} already posted on an earlier commit ${n === 1 ? "was" : "were"} skipped.`,
        ),
      ),
    );
  }
  const dismissed = plan.dismissed.length;
  if (dismissed > 0) {
    const were = dismissed === 1 ? "was" : "were";
    tail.push(paragraph(text(`${plural(dismissed, "finding")} dismissed earlier ${were} not raised again.`)));
  }
  tail.push(...renderNotes(review.notes, repository));
  tail.push(hiddenMarker(reviewMarker(input.headSha, input.checkRunId)));
  for (const marker of input.trailingMarkers ?? []) tail.push(hiddenMarker(marker));

  const because = reasons(input.words);
  const section = heading(4, text(allInBody ? "Findings" : "Outside the diff"));
  const leftOut = (n: number) =>
    paragraph(
      emphasis(
        text(
          `… ${plural(n, "more finding")} not shown: the review body is limited to ${MAX_REVIEW_BODY} characters.`,
        ),
      ),
    );
  // Room for everything but the findings, with the longest possible "not shown" line.
  let used = serializeBlocks([...head, section, leftOut(listed.length), ...tail]).length;
  // Rendered one at a time up to the first that does not fit: a finding after it is left out
  // whatever its size, so rendering it (parsing its model text) would be work for nothing.
  const kept: string[] = [];
  for (const entry of listed) {
    const reason = entry.reason === null ? null : because[entry.reason];
    const block = serializeBlocks(renderListed(entry.finding, reason, entry, repository));
    if (used + block.length + 2 > MAX_REVIEW_BODY) break;
    kept.push(block);
    used += block.length + 2;
  }
  const parts = [serializeBlocks(head)];
  if (listed.length > 0) parts.push(serializeBlocks([section]), ...kept);
  if (kept.length < listed.length) parts.push(serializeBlocks([leftOut(listed.length - kept.length)]));
  // Each part is whole blocks, closed where it ends, so joining them cannot change how they read.
  return [...parts, serializeBlocks(tail)].join("\n\n");
}

function renderListed(
  finding: Finding,
  reason: string | null,
  marks: { readonly fingerprint: string; readonly identity?: FindingIdentity | undefined },
  repository: RepositoryRef,
): Block[] {
  return [
    heading(5, ...headingInlines(finding, BODY_BUDGETS, repository)),
    paragraph(code(locationText(finding)), ...(reason === null ? [] : [text(` (${reason})`)])),
    ...renderFindingFields(finding, repository, BODY_BUDGETS),
    hiddenMarker(fingerprintMarker(marks.fingerprint)),
    ...(marks.identity === undefined ? [] : [hiddenMarker(identityMarker(marks.identity))]),
  ];
}

/** Notes share a 16,000-character budget so that findings keep most of the body. */
function renderNotes(notes: readonly string[], repository: RepositoryRef): Block[] {
  const rendered: Block[] = [];
  let used = 0;
  const texts = notes.map((n) => n.trim()).filter((n) => n !== "");
  let shown = 0;
  for (const note of texts) {
    const blocks = bulleted(sanitizeBlocks(note, repository, 2000));
    const size = serializeBlocks(blocks).length;
    if (used + size > 16000) break;
    rendered.push(...blocks);
    used += size;
    shown++;
  }
  if (shown < texts.length)
    rendered.push(paragraph(emphasis(text(`… ${plural(texts.length - shown, "more note")} not shown.`))));
  return rendered.length === 0 ? [] : [heading(4, text("Notes")), ...rendered];
}

/** A bullet before the note's first paragraph (a bullet is text: no list syntax to escape from). */
function bulleted(blocks: Block[]): Block[] {
  const first = blocks[0];
  if (first?.type === "paragraph") return [paragraph(text("• "), ...first.children), ...blocks.slice(1)];
  return [paragraph(text("•")), ...blocks];
}

function countsLine(plan: PublishPlan, allInBody: boolean, words: ForgeWords): string {
  if (allInBody) {
    return `${words.forge} did not accept the inline comments, so all ${plural(plan.inline.length + plan.outside.length, "finding")} are listed here.`;
  }
  return `${plural(plan.inline.length, "inline comment")}, ${plural(plan.outside.length, "finding")} outside the diff.`;
}

function belowLine(findings: readonly Finding[]): Block {
  const counts = SEVERITIES.map(
    (s: Severity) => [s, findings.filter((f) => f.severity === s).length] as const,
  )
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`);
  const verb = findings.length === 1 ? "is" : "are";
  return paragraph(
    text(`${plural(findings.length, "finding")} below this repository's `),
    code("min_severity"),
    text(` ${verb} not shown (${counts.join(", ")}).`),
  );
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
