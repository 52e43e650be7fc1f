// Delimiting inline code so that GitHub's parser (cmark-gfm) closes it exactly where Loupe meant.
// A code span closes only on a backtick run of exactly its opener's length, and cmark gives up on
// an opener longer than 80 backticks (MAXBACKTICKS): such a span never closes, its backticks are
// shown as text and everything after them is read as live Markdown. So the delimiter is the
// shortest length in 1..80 that does not occur as a run inside; content holding a run of every
// length from 1 to 80 is split into pieces that each leave a length free.

export const MAX_SPAN_DELIMITER = 80;

/** Content (already on one line) as one or more code spans separated by a space. */
export function delimitCode(content: string): string {
  return splitForSpans(content).map(delimitPiece).join(" ");
}

function delimitPiece(piece: string): string {
  const used = runLengths(piece);
  let length = 1;
  while (used.has(length)) length++;
  const delimiter = "`".repeat(length);
  // cmark strips one space each side when both are there and the content is not all spaces, so
  // such content, and content starting or ending with a backtick (which would lengthen the
  // delimiter), gets one space of padding each side.
  const pad =
    piece.startsWith("`") ||
    piece.endsWith("`") ||
    (piece.startsWith(" ") && piece.endsWith(" ") && piece.trim() !== "");
  const space = pad ? " " : "";
  return `${delimiter}${space}${piece}${space}${delimiter}`;
}

export interface BacktickRun {
  readonly start: number;
  readonly length: number;
}

/** Each maximal run of backticks in `text`, in order: where it starts and how long it is. */
export function* backtickRunsIn(text: string): Generator<BacktickRun> {
  for (const match of text.matchAll(/`+/g)) yield { start: match.index, length: match[0].length };
}

/** Lengths of the backtick runs in `text` that could close a span (1..80). */
function runLengths(text: string): Set<number> {
  const lengths = new Set<number>();
  for (const { length } of backtickRunsIn(text)) if (length <= MAX_SPAN_DELIMITER) lengths.add(length);
  return lengths;
}

/**
 * Pieces of `content` that each lack some run length in 1..80: a new piece starts at the run that
 * would complete the set. Needs at least 3,240 backticks to split at all.
 */
export function splitForSpans(content: string): string[] {
  const pieces: string[] = [];
  let lengths = new Set<number>();
  let pieceStart = 0;
  for (const { start, length } of backtickRunsIn(content)) {
    if (length > MAX_SPAN_DELIMITER || lengths.has(length)) continue;
    if (lengths.size === MAX_SPAN_DELIMITER - 1) {
      pieces.push(content.slice(pieceStart, start));
      pieceStart = start;
      lengths = new Set();
    }
    lengths.add(length);
  }
  pieces.push(content.slice(pieceStart));
  return pieces.filter((piece) => piece !== "");
}
