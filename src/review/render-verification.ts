// What the verification pass did, in the check run and the CLI's Markdown, so its filter is auditable: the findings it
// held back or posted as disputed, each with the verifier's reason and the head commit's lines it
// quoted, those left without a verdict (posted, and said to be unverified: the budget ran out, or
// the verifier's loop ended without a verdict and how it ended), and how many
// findings' evidence quoted the code. The titles, reasons and quotes
// are the model's: shown as escaped text and a fenced block, redacted and cut, never as Markdown;
// titles and reasons on one line each (every entry is one item of a list), with a look-alike for
// each reference a host with wide references would link (wide-references.ts).

import type { Finding } from "../domain/finding.ts";
import type { ForgeWords } from "../domain/forge-words.ts";
import { terminationSentence } from "../domain/outcome.ts";
import { redactSecrets } from "../domain/redact.ts";
import { cutCodePoints } from "../domain/text.ts";
import type { NotVerified, UnverifiedFinding } from "../domain/verification.ts";
import type { LoopResult } from "../llm/types.ts";
import { type Block, code, codeBlock, paragraph, strong, text } from "./markdown-tree.ts";
import { neutralReferences, type ReferenceSyntax } from "./wide-references.ts";

const MAX_LISTED = 20;
const MAX_TITLE = 200;
const MAX_REASON = 600;
const MAX_QUOTE = 1_500;

export const cut = (value: string, max: number): string => {
  const redacted = redactSecrets(value);
  return redacted.length > max ? `${cutCodePoints(redacted, max)}…` : redacted;
};

/** The model's text as one line of a list: redacted, cut, and inert on a host with wide references. */
export function listedText(value: string, max: number, references?: ReferenceSyntax): string {
  // Redacted before its line breaks go: a secret's pattern may span lines.
  const line = cut(value, max).replace(/\s+/g, " ").trim();
  return references === "wide" ? neutralReferences(line) : line;
}

export function renderVerification(
  result: LoopResult,
  words: ForgeWords,
  references?: ReferenceSyntax,
): Block[] {
  const verification = result.verification;
  if (verification === undefined) return [];
  const where = (finding: Finding) => [
    strong(text(listedText(finding.title, MAX_TITLE, references))),
    text(" at "),
    code(cut(`${finding.path}${finding.line === null ? "" : `:${finding.line}`}`, 300)),
  ];
  const reason = (value: string) => text(` — ${listedText(value, MAX_REASON, references)}`);
  const { kept, unproven, refuted, disputed, unverified, unquoted } = verification;
  const checked = kept + refuted.length + disputed.length;
  const out: Block[] = [
    paragraph(
      strong(text("Verification:")),
      text(
        ` ${kept} finding${kept === 1 ? "" : "s"} checked and kept` +
          (unproven > 0 ? ` (${unproven} refuted without a quote that shows more than the claim)` : "") +
          `, ${disputed.length} refuted but posted as disputed (high or critical severity), ` +
          `${refuted.length} refuted and not posted, ${unverified.length} not verified${whyNotVerified(unverified)}.` +
          (checked > 0
            ? ` Evidence: ${checked - unquoted} of ${checked} checked findings quote the head code.`
            : ""),
      ),
    ),
  ];
  for (const held of disputed.slice(0, MAX_LISTED)) {
    out.push(
      paragraph(text("Disputed (posted): "), ...where(held.finding), reason(held.reason)),
      codeBlock(cut(held.quote, MAX_QUOTE)),
    );
  }
  for (const held of refuted.slice(0, MAX_LISTED)) {
    out.push(
      paragraph(text("Refuted: "), ...where(held.finding), reason(held.reason)),
      codeBlock(cut(held.quote, MAX_QUOTE)),
    );
  }
  for (const ended of noVerdictReasons(unverified)) {
    out.push(
      paragraph(
        text("The verifier gave no verdict: "),
        code(ended),
        text(
          ` — ${terminationSentence(ended, words)} No budget ran out: a model that does not answer in the verdict's schema, or a provider that fails, leaves findings unverified.`,
        ),
      ),
    );
  }
  for (const { finding, why } of unverified.slice(0, MAX_LISTED)) {
    out.push(paragraph(text("Not verified (posted): "), ...where(finding), text(` — ${sayWhy(why)}`)));
  }
  const more = [disputed, refuted, unverified].reduce(
    (sum, list) => sum + Math.max(0, list.length - MAX_LISTED),
    0,
  );
  if (more > 0) out.push(paragraph(text(`… ${more} more not listed.`)));
  return out;
}

/** What one unverified finding lacked: the budget, or a verdict from the verifier (how it ended). */
export function sayWhy(why: NotVerified): string {
  return why.kind === "budget"
    ? "the review's budget ran out"
    : `the verifier gave no verdict: ${why.reason}`;
}

/** The count's parenthesis: one reason alone, or each reason with its count. */
function whyNotVerified(unverified: readonly UnverifiedFinding[]): string {
  if (unverified.length === 0) return "";
  const counts = new Map<string, number>();
  for (const { why } of unverified) counts.set(sayWhy(why), (counts.get(sayWhy(why)) ?? 0) + 1);
  if (counts.size === 1) return ` (${[...counts.keys()][0]})`;
  return ` (${[...counts].map(([said, n]) => `${n}: ${said}`).join("; ")})`;
}

function noVerdictReasons(unverified: readonly UnverifiedFinding[]) {
  return [...new Set(unverified.flatMap(({ why }) => (why.kind === "no_verdict" ? [why.reason] : [])))];
}
