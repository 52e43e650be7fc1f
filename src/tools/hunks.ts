// Unified-diff hunks as git prints them, computed with jsdiff. Both sides are handled as
// "binary strings" (one char per byte, latin1) so lines compare byte for byte like git's, even
// for non-UTF-8 text; each emitted line is converted back to UTF-8 for the model.

import { structuredPatch } from "diff";

/** git's default context (jsdiff's default is 4). */
const CONTEXT_LINES = 3;
/** Bounds jsdiff's Myers search; past it the file is shown as one whole-file replacement hunk. */
const MAX_EDIT_LENGTH = 5000;
/** git's `struct func_line` buffer: a hunk's function context is at most 80 bytes. */
const FUNC_LINE_BYTES = 80;
const NO_NEWLINE = "\\ No newline at end of file";

export interface Hunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly string[];
}

function toUtf8(binary: string): string {
  return Buffer.from(binary, "latin1").toString("utf8");
}

/** git prints `start,count`, `start` alone for one line, and the line before for an empty range. */
function range(start: number, count: number): string {
  if (count === 0) return `${Math.max(0, start - 1)},0`;
  return count === 1 ? `${start}` : `${start},${count}`;
}

function splitRecords(binary: string): string[] {
  if (binary === "") return [];
  const lines = binary.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** xdiff's default `def_ff`: a line starting with a letter, `_` or `$`, right-trimmed, ≤ 80 bytes. */
function functionContexts(oldLines: readonly string[]): (string | undefined)[] {
  const nearest: (string | undefined)[] = [];
  let last: string | undefined;
  for (const line of oldLines) {
    if (/^[A-Za-z_$]/.test(line)) last = line.slice(0, FUNC_LINE_BYTES).replace(/[ \t\n\v\f\r]+$/, "");
    nearest.push(last);
  }
  return nearest;
}

function wholeFileHunk(oldText: string, newText: string): Hunk[] {
  const side = (text: string, sign: string): string[] => {
    const lines = splitRecords(text).map((line) => sign + line);
    return text !== "" && !text.endsWith("\n") ? [...lines, NO_NEWLINE] : lines;
  };
  const oldLines = side(oldText, "-");
  const newLines = side(newText, "+");
  const count = (lines: string[]) => lines.filter((line) => line !== NO_NEWLINE).length;
  return [
    {
      oldStart: 1,
      oldLines: count(oldLines),
      newStart: 1,
      newLines: count(newLines),
      lines: [...oldLines, ...newLines],
    },
  ];
}

/** The `@@` blocks of a text change, lines already converted to UTF-8. */
export function formatHunks(oldBytes: Uint8Array, newBytes: Uint8Array): string[] {
  const oldText = Buffer.from(oldBytes).toString("latin1");
  const newText = Buffer.from(newBytes).toString("latin1");
  const patch = structuredPatch("a", "b", oldText, newText, undefined, undefined, {
    context: CONTEXT_LINES,
    maxEditLength: MAX_EDIT_LENGTH,
  });
  const hunks: readonly Hunk[] = patch?.hunks ?? wholeFileHunk(oldText, newText);
  const contexts = functionContexts(splitRecords(oldText));
  const out: string[] = [];
  for (const hunk of hunks) {
    // The search starts at the line before the hunk's first line (git's `s1 - 1`).
    const context = hunk.oldStart >= 2 ? contexts[hunk.oldStart - 2] : undefined;
    const suffix = context === undefined || context === "" ? "" : ` ${toUtf8(context)}`;
    out.push(
      `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@${suffix}`,
    );
    for (const line of hunk.lines) out.push(toUtf8(line));
  }
  return out;
}
