// A refutation is evidence only if what it quotes is really in the head commit where the finding
// points: the quote's lines, whitespace normalised and blank lines dropped, must appear in the
// file within a few lines of the finding's anchor (anywhere in the file for a finding with no
// line). Read with the read tool's own rules, so a path it refuses proves nothing.

import type { Finding } from "../domain/finding.ts";
import { readRepositoryTextFile } from "../tools/repository-file.ts";
import type { RepositoryView } from "../workspace/types.ts";
import { normaliseLine } from "./file-code.ts";

/** How far from the finding's lines a quote may be: the proof is usually the next few lines. */
export const QUOTE_WINDOW_LINES = 30;
/** A quote shorter than this (normalised) could match almost anywhere. */
const MIN_QUOTE_CHARS = 3;

const normalised = (lines: readonly string[]): string =>
  lines
    .map(normaliseLine)
    .filter((line) => line !== "")
    .join("\n");

/** `12: ` before a line, as the excerpt the verifier was shown numbers it. */
const LINE_NUMBER = /^\s*\d+: /;

/** The quote's lines without the excerpt's numbers, when every line carries one (a copied excerpt). */
function quoteLines(quote: string): string[] {
  const lines = quote.split("\n").filter((line) => line.trim() !== "");
  return lines.length > 0 && lines.every((line) => LINE_NUMBER.test(line))
    ? lines.map((line) => line.replace(LINE_NUMBER, ""))
    : lines;
}

export async function quoteInHead(view: RepositoryView, finding: Finding, quote: string): Promise<boolean> {
  const wanted = normalised(quoteLines(quote));
  if (wanted.length < MIN_QUOTE_CHARS) return false;
  const file = await readRepositoryTextFile(view, finding.path);
  if (!file.ok) return false;
  const first = finding.line === null ? 1 : Math.max(1, finding.line - QUOTE_WINDOW_LINES);
  const last =
    finding.line === null ? file.lineCount : (finding.end_line ?? finding.line) + QUOTE_WINDOW_LINES;
  return normalised(file.lines.slice(first - 1, last)).includes(wanted);
}
