// The agents' document (docs/review-result.schema.json) at the end of the App's check run text, in
// a hidden HTML comment: one GET of the check run gives it to any token that can read checks, with
// no Markdown to parse (docs/machine-output.md, "The App").
//
// The model writes the findings' texts, so the JSON must not be able to end the comment early:
// every `<` and `>` is written as a JSON escape and so is the second `-` of every `--`; what
// remains holds no `-->`, `--!>` or `<!--`. It is one line (JSON.stringify escapes line breaks), so
// it stays one HTML block for a Markdown parser.
//
// GitHub keeps 65,535 characters of text: when the document would not fit, whole entries are left
// out (the ledger's resolved findings first, then the files no pass reviewed, then the least severe
// findings) and `omitted` counts them, so the block is always whole, valid JSON.

import { cutCodePoints } from "../domain/text.ts";
import type { ReviewDocument } from "../pipeline/machine-review.ts";

export const REVIEW_JSON_MARKER = "loupe:review-json";
const LONG_EXPLANATION = 2000;

/** JSON with no character sequence that could end or open an HTML comment. */
export function inertJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/[<>]/g, (c) => (c === "<" ? "\\u003c" : "\\u003e"))
    .replace(/--/g, "-\\u002d");
}

const wrap = (json: string) => `<!-- ${REVIEW_JSON_MARKER} ${json} -->`;

interface Kept {
  readonly findings: number;
  readonly notReviewed: number;
  readonly resolved: number;
}

function notReviewedOf(document: ReviewDocument) {
  return document.outcome.coverage?.not_reviewed ?? [];
}

/** The document as the block carries it: `omitted` counts what did not fit. */
export type BlockDocument = ReviewDocument & {
  readonly omitted: { readonly findings: number; readonly not_reviewed: number; readonly resolved: number };
};

function shaped(document: ReviewDocument, kept: Kept, explanation: string): BlockDocument {
  const notReviewed = notReviewedOf(document);
  const coverage = document.outcome.coverage;
  return {
    ...document,
    outcome: {
      ...document.outcome,
      explanation,
      coverage:
        coverage === null ? null : { ...coverage, not_reviewed: notReviewed.slice(0, kept.notReviewed) },
    },
    findings: document.findings.slice(0, kept.findings),
    resolved: document.resolved.slice(0, kept.resolved),
    omitted: {
      findings: document.findings.length - kept.findings,
      not_reviewed: notReviewed.length - kept.notReviewed,
      resolved: document.resolved.length - kept.resolved,
    },
  };
}

/** How many of `items` fit in `room` characters of JSON, in order, each with its comma. */
function prefixThatFits(items: readonly unknown[], room: number): { count: number; used: number } {
  let used = 0;
  let count = 0;
  for (const item of items) {
    const size = inertJson(item).length + 1;
    if (used + size > room) break;
    used += size;
    count++;
  }
  return { count, used };
}

/** The hidden block, at most `limit` characters, with whole entries left out (and counted) to fit. */
export function reviewJsonBlock(document: ReviewDocument, limit: number): string {
  const all: Kept = {
    findings: document.findings.length,
    notReviewed: notReviewedOf(document).length,
    resolved: document.resolved.length,
  };
  let explanation = document.outcome.explanation;
  const whole = wrap(inertJson(shaped(document, all, explanation)));
  if (whole.length <= limit) return whole;
  const none: Kept = { findings: 0, notReviewed: 0, resolved: 0 };
  // The counts in `omitted` are at most the totals, so the empty document's size (its counts are
  // the totals) bounds every cut's overhead.
  const base = () => wrap(inertJson(shaped(document, none, explanation))).length;
  if (base() > limit) explanation = `${cutCodePoints(explanation, LONG_EXPLANATION)}…`;
  let room = limit - base();
  const findings = prefixThatFits(document.findings, room);
  room -= findings.used;
  const notReviewed = prefixThatFits(notReviewedOf(document), room);
  room -= notReviewed.used;
  const resolved = prefixThatFits(document.resolved, room);
  return wrap(
    inertJson(
      shaped(
        document,
        { findings: findings.count, notReviewed: notReviewed.count, resolved: resolved.count },
        explanation,
      ),
    ),
  );
}
