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

/** A finding's lines: the first (null for a whole file) and the last, when it spans several. */
export interface QuoteAnchor {
  readonly line: number | null;
  readonly end_line?: number | null;
}

export function quoteNear(lines: readonly string[], anchor: QuoteAnchor, quote: string): boolean {
  const wanted = normalised(quoteLines(quote));
  if (wanted.length < MIN_QUOTE_CHARS) return false;
  if (anchor.line === null) return wholeFile(lines).includes(wanted);
  const first = Math.max(1, anchor.line - QUOTE_WINDOW_LINES);
  const last = Math.min(anchor.end_line ?? anchor.line, anchor.line + MAX_RANGE_LINES) + QUOTE_WINDOW_LINES;
  return normalised(lines.slice(first - 1, last)).includes(wanted);
}

/** A fragment of prose evidence shorter than this (normalised) is an identifier, not a quote. */
const MIN_FRAGMENT_CHARS = 8;
const FENCED = /```[^\n]*\n([\s\S]*?)```/g;
const BACKTICKED = /`([^`\n]+)`/g;
/** `Line 42:`, `L42:`, `line 42 reads:`, `42 |`, `> ` before a copied line of code. */
const LINE_PREFIX =
  /^\s*(?:>\s*)?(?:(?:lines?\s+|L)\d+(?:\s*[-–]\s*\d+)?(?:\s+reads)?\s*[:|]\s*|\d+\s*[:|]\s+)/i;
const READS = /\breads:\s*(.+)$/i;
const WRAPPING_QUOTES = /^["'“‘](.*)["'”’]$/;

/** The pieces of prose evidence that could be quotes of code: the whole, code spans, copied lines. */
function evidenceCandidates(evidence: string): string[] {
  const candidates = [evidence];
  for (const match of evidence.matchAll(FENCED)) candidates.push(match[1] ?? "");
  for (const match of evidence.matchAll(BACKTICKED)) candidates.push(match[1] ?? "");
  for (const line of evidence.split("\n")) {
    const unprefixed = line.replace(LINE_PREFIX, "");
    const read = READS.exec(unprefixed)?.[1] ?? unprefixed;
    const unquoted = WRAPPING_QUOTES.exec(read.trim())?.[1] ?? read;
    candidates.push(unquoted, unquoted.replace(/[.,]$/, ""));
  }
  return candidates;
}

/**
 * Whether a finding's evidence quotes the head code near its lines, the way real models write
 * evidence: copied lines (with or without their numbers), a code span, a fenced block, or the text
 * after "Line 42 reads:". A signal of how grounded a finding is, recorded after validation and
 * never a reason to reject a review; a fragment must be long enough to mean something.
 */
export function evidenceQuotesCode(lines: readonly string[], anchor: QuoteAnchor, evidence: string): boolean {
  if (quoteNear(lines, anchor, evidence)) return true;
  return evidenceCandidates(evidence).some(
    (candidate) =>
      normalised(quoteLines(candidate)).length >= MIN_FRAGMENT_CHARS && quoteNear(lines, anchor, candidate),
  );
}

/** A line of a refutation that is new to the claim must say this much to prove anything. */
const MIN_PROOF_CHARS = 6;

/**
 * Whether a verifier's quote can refute a finding: it must stand in the head commit near the
 * finding, and show code other than the claim itself. The flagged lines, and lines the finding's
 * own evidence already quotes, are what the finding is about; quoting them back proves nothing,
 * which is how text in a pull request could talk a verifier into "refuting" a true finding.
 */
export function quoteRefutes(
  lines: readonly string[],
  finding: QuoteAnchor & { readonly evidence: string },
  quote: string,
): boolean {
  if (!quoteNear(lines, finding, quote)) return false;
  const flagged = new Set<string>();
  if (finding.line !== null) {
    const last = Math.min(finding.end_line ?? finding.line, finding.line + MAX_RANGE_LINES);
    for (const line of lines.slice(finding.line - 1, last)) flagged.add(normaliseLine(line));
  }
  const claim = normaliseLine(finding.evidence.replace(/\s+/g, " "));
  return quoteLines(quote)
    .map(normaliseLine)
    .some((line) => line.length >= MIN_PROOF_CHARS && !flagged.has(line) && !claim.includes(line));
}
