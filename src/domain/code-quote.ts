// Whether a quote of code stands in a file near a finding's lines: the quote's lines, whitespace
// normalised and blank lines dropped, must appear in the file within a few lines of the finding
// (anywhere in the file for a finding with no line). The same rule judges a finding's own
// evidence (llm/final-review.ts) and a verifier's refutation (review/refutation-quote.ts).

/** How far from the finding's lines a quote may be: the proof is usually the next few lines. */
export const QUOTE_WINDOW_LINES = 30;
/**
 * Of a long range, only its first lines are searched: the quote belongs near where the finding
 * starts, and a hundred findings over a megabyte file must not each normalise all of it.
 */
const MAX_RANGE_LINES = 100;
/** A quote shorter than this (normalised) could match almost anywhere. */
const MIN_QUOTE_CHARS = 3;

const UNUSUAL_SPACE = /\s\s|[^\S ]/;

/** The line with each whitespace run made one space, trimmed (most lines need only the trim). */
export function normaliseLine(line: string): string {
  const trimmed = line.trim();
  return UNUSUAL_SPACE.test(trimmed) ? trimmed.replace(/\s+/g, " ") : trimmed;
}

const normalised = (lines: readonly string[]): string =>
  lines
    .map(normaliseLine)
    .filter((line) => line !== "")
    .join("\n");

/** `12: ` before a line, as the read tool and the verifier's excerpt number lines. */
const LINE_NUMBER = /^\s*\d+: /;

/** The quote's lines without their numbers, when every line carries one (a copied excerpt). */
function quoteLines(quote: string): string[] {
  const lines = quote.split("\n").filter((line) => line.trim() !== "");
  return lines.length > 0 && lines.every((line) => LINE_NUMBER.test(line))
    ? lines.map((line) => line.replace(LINE_NUMBER, ""))
    : lines;
}

/** A file's normalised text, made once however many findings with no line search it. */
const normalisedFiles = new WeakMap<readonly string[], string>();
function wholeFile(lines: readonly string[]): string {
  let text = normalisedFiles.get(lines);
  if (text === undefined) {
    text = normalised(lines);
    normalisedFiles.set(lines, text);
  }
  return text;
}

export function quoteNear(
  lines: readonly string[],
  anchor: { readonly line: number | null; readonly end_line?: number | null },
  quote: string,
): boolean {
  const wanted = normalised(quoteLines(quote));
  if (wanted.length < MIN_QUOTE_CHARS) return false;
  if (anchor.line === null) return wholeFile(lines).includes(wanted);
  const first = Math.max(1, anchor.line - QUOTE_WINDOW_LINES);
  const last = Math.min(anchor.end_line ?? anchor.line, anchor.line + MAX_RANGE_LINES) + QUOTE_WINDOW_LINES;
  return normalised(lines.slice(first - 1, last)).includes(wanted);
}
