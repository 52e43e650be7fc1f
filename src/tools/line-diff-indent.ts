// git's indent heuristic (xdiff/xdiffi.c, on by default since git 2.14): a run of added or
// deleted lines that could sit in several places is put where its two boundaries read best to a
// person, judged by the indentation and blank lines around each boundary. The constants are
// git's own, tuned by Michael Haggerty on a corpus of human-rated diffs; with the same inputs
// Loupe places such runs exactly where `git diff` (and so GitHub) does.

const MAX_INDENT = 200;
const MAX_BLANKS = 20;
const START_OF_FILE_PENALTY = 1;
const END_OF_FILE_PENALTY = 21;
const TOTAL_BLANK_WEIGHT = -30;
const POST_BLANK_WEIGHT = 6;
const RELATIVE_INDENT_PENALTY = -4;
const RELATIVE_INDENT_WITH_BLANK_PENALTY = 10;
const RELATIVE_OUTDENT_PENALTY = 24;
const RELATIVE_OUTDENT_WITH_BLANK_PENALTY = 17;
const RELATIVE_DEDENT_PENALTY = 23;
const RELATIVE_DEDENT_WITH_BLANK_PENALTY = 17;
const INDENT_WEIGHT = 60;
/** How far up from its lowest place a run is tried (git's INDENT_HEURISTIC_MAX_SLIDING). */
export const INDENT_HEURISTIC_MAX_SLIDING = 100;

/** Indentation width of a line (tabs to multiples of 8), or -1 for a blank line. */
export function lineIndent(line: string): number {
  let indent = 0;
  for (let i = 0; i < line.length; i += 1) {
    const c = line.charCodeAt(i);
    // C's isspace: space, \t, \n, \v, \f, \r. Only spaces and tabs count towards the width.
    if (c !== 32 && !(c >= 9 && c <= 13)) return indent;
    if (c === 32) indent += 1;
    else if (c === 9) indent += 8 - (indent % 8);
    if (indent >= MAX_INDENT) return MAX_INDENT;
  }
  return -1;
}

interface SplitScore {
  effectiveIndent: number;
  penalty: number;
}

/**
 * From line `from`, stepping by `step` (-1 up, 1 down) within the file's `lines`: the blank lines
 * met and the indent of the first line that is not blank (-1 when none is; 0 after MAX_BLANKS
 * blanks, where git stops looking).
 */
function nearestIndent(
  from: number,
  step: 1 | -1,
  indentOf: (line: number) => number,
  lines: number,
): { readonly blanks: number; readonly indent: number } {
  let blanks = 0;
  for (let i = from; i >= 0 && i < lines; i += step) {
    const indent = indentOf(i);
    if (indent !== -1) return { blanks, indent };
    blanks += 1;
    if (blanks === MAX_BLANKS) return { blanks, indent: 0 };
  }
  return { blanks, indent: -1 };
}

/**
 * Adds the badness of splitting the file just before line `split` (0-based; `lines` is the
 * line count) to `score`. `indentOf(i)` is lineIndent of line i.
 */
function addSplitScore(
  split: number,
  lines: number,
  indentOf: (line: number) => number,
  score: SplitScore,
): void {
  const endOfFile = split >= lines;
  const indentHere = endOfFile ? -1 : indentOf(split);
  const { blanks: preBlank, indent: preIndent } = nearestIndent(split - 1, -1, indentOf, lines);
  const { blanks: postBlank, indent: postIndent } = nearestIndent(split + 1, 1, indentOf, lines);

  if (preIndent === -1 && preBlank === 0) score.penalty += START_OF_FILE_PENALTY;
  if (endOfFile) score.penalty += END_OF_FILE_PENALTY;
  const blankAfter = indentHere === -1 ? 1 + postBlank : 0;
  const totalBlank = preBlank + blankAfter;
  score.penalty += TOTAL_BLANK_WEIGHT * totalBlank + POST_BLANK_WEIGHT * blankAfter;
  const indent = indentHere !== -1 ? indentHere : postIndent;
  const anyBlanks = totalBlank !== 0;
  score.effectiveIndent += indent;
  if (indent === -1 || preIndent === -1 || indent === preIndent) return;
  if (indent > preIndent) {
    score.penalty += anyBlanks ? RELATIVE_INDENT_WITH_BLANK_PENALTY : RELATIVE_INDENT_PENALTY;
  } else if (postIndent !== -1 && postIndent > indent) {
    score.penalty += anyBlanks ? RELATIVE_OUTDENT_WITH_BLANK_PENALTY : RELATIVE_OUTDENT_PENALTY;
  } else {
    score.penalty += anyBlanks ? RELATIVE_DEDENT_WITH_BLANK_PENALTY : RELATIVE_DEDENT_PENALTY;
  }
}

function compareScores(a: SplitScore, b: SplitScore): number {
  const indents =
    Number(a.effectiveIndent > b.effectiveIndent) - Number(a.effectiveIndent < b.effectiveIndent);
  return INDENT_WEIGHT * indents + (a.penalty - b.penalty);
}

/**
 * The best end (exclusive, 0-based line index) for a run of `size` changed lines that may end
 * anywhere from `earliestEnd` to `lowestEnd`. Ties go to the lowest place, as in git.
 */
export function bestRunEnd(
  earliestEnd: number,
  lowestEnd: number,
  size: number,
  lines: number,
  indentOf: (line: number) => number,
): number {
  let shift = Math.max(earliestEnd, lowestEnd - size - 1, lowestEnd - INDENT_HEURISTIC_MAX_SLIDING);
  let best = -1;
  let bestScore: SplitScore = { effectiveIndent: 0, penalty: 0 };
  for (; shift <= lowestEnd; shift += 1) {
    const score: SplitScore = { effectiveIndent: 0, penalty: 0 };
    addSplitScore(shift, lines, indentOf, score);
    addSplitScore(shift - size, lines, indentOf, score);
    if (best === -1 || compareScores(score, bestScore) <= 0) {
      bestScore = score;
      best = shift;
    }
  }
  return best;
}
