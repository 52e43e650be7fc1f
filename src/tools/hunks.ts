// Unified-diff hunks as git prints them (3 lines of context, hunks joined when at most 6
// unchanged lines part them), from the line changes of line-diff.ts. Both sides are handled as
// "binary strings" (one char per byte, latin1) so lines compare byte for byte like git's, even
// for non-UTF-8 text; each emitted line is converted back to UTF-8 for the model. A line
// compares with its newline, so a last line that gained or lost one shows as changed.

import { isAscii } from "node:buffer";
import type { HunkHeader } from "../domain/hunk-header.ts";
import { diffLines } from "./line-diff.ts";

/** git's default context (jsdiff's default is 4). */
const CONTEXT_LINES = 3;
/** git's `struct func_line` buffer: a hunk's function context is at most 80 bytes. */
const FUNC_LINE_BYTES = 80;
const NO_NEWLINE = "\\ No newline at end of file";

export interface Hunk extends HunkHeader {
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

/** xdiff's default `def_ff`: a line starting with a letter, `_` or `$`, right-trimmed, ≤ 80 bytes. */
const FUNCTION_LINE = /^[A-Za-z_$]/;

function functionHeading(record: string): string {
  return record.slice(0, FUNC_LINE_BYTES).replace(/[ \t\n\v\f\r]+$/, "");
}

/** The bytes as one char each, read in place (`Buffer.from(bytes)` would copy them first). */
function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
}

/** Lines with their own newline (the last one may lack it): what git compares. */
function splitKeepingNewlines(binary: string): string[] {
  const records: string[] = [];
  let start = 0;
  while (start < binary.length) {
    const newline = binary.indexOf("\n", start);
    const end = newline === -1 ? binary.length : newline + 1;
    records.push(binary.slice(start, end));
    start = end;
  }
  return records;
}

interface Change {
  readonly oldAt: number;
  readonly oldCount: number;
  readonly newAt: number;
  readonly newCount: number;
}

function changesOf(oldChanged: Uint8Array, newChanged: Uint8Array): Change[] {
  const changes: Change[] = [];
  let i = 0;
  let j = 0;
  while (i < oldChanged.length || j < newChanged.length) {
    if (oldChanged[i] === 1 || newChanged[j] === 1) {
      const oldAt = i;
      const newAt = j;
      while (oldChanged[i] === 1) i += 1;
      while (newChanged[j] === 1) j += 1;
      changes.push({ oldAt, oldCount: i - oldAt, newAt, newCount: j - newAt });
    } else {
      // An unchanged line: the two sides' unchanged lines pair up in order.
      i += 1;
      j += 1;
    }
  }
  return changes;
}

function buildHunks(oldRecords: readonly string[], newRecords: readonly string[]): Hunk[] {
  const { oldChanged, newChanged } = diffLines(oldRecords, newRecords);
  const changes = changesOf(oldChanged, newChanged);
  const hunks: Hunk[] = [];
  const emit = (lines: string[], sign: string, record: string) => {
    lines.push(sign + (record.endsWith("\n") ? record.slice(0, -1) : record));
    if (!record.endsWith("\n")) lines.push(NO_NEWLINE);
  };
  for (let first = 0; first < changes.length; ) {
    let last = first;
    while (
      last + 1 < changes.length &&
      changes[last + 1]!.oldAt - (changes[last]!.oldAt + changes[last]!.oldCount) <= 2 * CONTEXT_LINES
    ) {
      last += 1;
    }
    const head = changes[first]!;
    const tail = changes[last]!;
    const oldStart = Math.max(0, head.oldAt - CONTEXT_LINES);
    const newStart = Math.max(0, head.newAt - CONTEXT_LINES);
    const oldEnd = Math.min(oldRecords.length, tail.oldAt + tail.oldCount + CONTEXT_LINES);
    const newEnd = Math.min(newRecords.length, tail.newAt + tail.newCount + CONTEXT_LINES);
    const lines: string[] = [];
    let at = oldStart;
    for (let index = first; index <= last; index += 1) {
      const change = changes[index]!;
      for (; at < change.oldAt; at += 1) emit(lines, " ", oldRecords[at]!);
      for (let k = 0; k < change.oldCount; k += 1) emit(lines, "-", oldRecords[change.oldAt + k]!);
      for (let k = 0; k < change.newCount; k += 1) emit(lines, "+", newRecords[change.newAt + k]!);
      at = change.oldAt + change.oldCount;
    }
    for (; at < oldEnd; at += 1) emit(lines, " ", oldRecords[at]!);
    hunks.push({
      oldStart: oldStart + 1,
      oldLines: oldEnd - oldStart,
      newStart: newStart + 1,
      newLines: newEnd - newStart,
      lines,
    });
    first = last + 1;
  }
  return hunks;
}

/** The `@@` blocks of a text change, lines already converted to UTF-8. */
export function formatHunks(oldBytes: Uint8Array, newBytes: Uint8Array): string[] {
  const oldRecords = splitKeepingNewlines(latin1(oldBytes));
  const newRecords = splitKeepingNewlines(latin1(newBytes));
  const hunks = buildHunks(oldRecords, newRecords);
  // Most source is ASCII, where latin1 and UTF-8 agree: no conversion at all.
  const ascii = isAscii(oldBytes) && isAscii(newBytes);
  const out: string[] = [];
  let scanned = 0;
  let heading: string | undefined;
  for (const hunk of hunks) {
    // git looks for the heading from the line before the hunk's first line (its `s1 - 1`)
    // upwards; hunks come in order, so one forward scan finds every hunk's nearest heading.
    const before = hunk.oldStart - 2;
    for (; scanned <= before; scanned += 1) {
      if (FUNCTION_LINE.test(oldRecords[scanned]!)) heading = oldRecords[scanned];
    }
    const context = before >= 0 && heading !== undefined ? functionHeading(heading) : "";
    const suffix = context === "" ? "" : ` ${ascii ? context : toUtf8(context)}`;
    out.push(
      `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@${suffix}`,
    );
    // Lines never hold a newline, so one conversion of the joined hunk splits back exactly.
    const lines = ascii ? hunk.lines : toUtf8(hunk.lines.join("\n")).split("\n");
    for (const line of lines) out.push(line);
  }
  return out;
}
