// Parses the `patch` GitHub returns for one file (compare base...head `files[].patch`) into
// hunks. These hunks are the only source of truth for which lines can take a review comment:
// one comment outside them makes GitHub reject the whole review with a 422.

import type { HunkHeader } from "../domain/hunk-header.ts";
import type { TimeSlices } from "../domain/time-slices.ts";

export interface Hunk extends HunkHeader {
  /** Added and context lines, by new-file line number: the RIGHT side. */
  readonly rightLines: ReadonlySet<number>;
  readonly addedLines: ReadonlySet<number>;
  /** Deleted and context lines, by old-file line number: the LEFT side. */
  readonly leftLines: ReadonlySet<number>;
  /** The text of each RIGHT line (without the +/space prefix), used for fingerprints. */
  readonly rightText: ReadonlyMap<number, string>;
}

const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** A hunk's `@@ -a,b +c,d @@` line, read; null when the line is none. The one reader of it. */
export function hunkHeader(line: string): HunkHeader | null {
  const header = line.startsWith("@@") ? HEADER.exec(line) : null;
  if (header === null) return null;
  return {
    oldStart: Number(header[1]),
    oldLines: header[2] === undefined ? 1 : Number(header[2]),
    newStart: Number(header[3]),
    newLines: header[4] === undefined ? 1 : Number(header[4]),
  };
}

interface Open {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  oldSeen: number;
  newSeen: number;
  right: Set<number>;
  added: Set<number>;
  left: Set<number>;
  text: Map<number, string>;
}

/**
 * Returns the hunks of a unified-diff patch. A malformed patch (a body line before any header,
 * a hunk whose line counts disagree with its header, an unknown line prefix) yields [] rather
 * than a partial answer: a wrong commentable set is worse than none, since it causes the 422.
 */
export function parsePatch(patch: string): Hunk[] {
  const parser = new PatchParser(patch);
  parser.read(Number.POSITIVE_INFINITY);
  return parser.hunks();
}

/** `parsePatch`, reading a few thousand lines at a time between turns of the event loop. */
export async function parsePatchInSlices(patch: string, slices: TimeSlices): Promise<Hunk[]> {
  const parser = new PatchParser(patch);
  while (!parser.read(LINES_A_SLICE)) await slices.pause();
  return parser.hunks();
}

/** Lines between two looks at the clock. */
const LINES_A_SLICE = 4096;

class PatchParser {
  private readonly lines: string[];
  private next = 0;
  private readonly done: Hunk[] = [];
  private open: Open | null = null;
  private failed = false;

  constructor(patch: string) {
    // Split on \n only: a CRLF file's lines keep their \r, which is content, not a line break.
    this.lines = patch.split("\n");
    if (this.lines.length > 0 && this.lines[this.lines.length - 1] === "") this.lines.pop();
  }

  /** Reads up to `count` more lines; true once every line is read (or the patch is malformed). */
  read(count: number): boolean {
    const end = Math.min(this.lines.length, this.next + count);
    while (!this.failed && this.next < end) this.failed = !this.line(this.lines[this.next++]!);
    return this.failed || this.next === this.lines.length;
  }

  hunks(): Hunk[] {
    if (this.failed) return [];
    const open = this.open;
    if (open === null) return this.done;
    return complete(open) ? [...this.done, close(open)] : [];
  }

  /** Takes one line; false when it makes the patch malformed. */
  private line(raw: string): boolean {
    const header = hunkHeader(raw);
    const open = this.open;
    if (header !== null) {
      if (open !== null && !complete(open)) return false;
      if (open !== null) this.done.push(close(open));
      this.open = start(header);
      return true;
    }
    if (open === null) {
      // Git's extended headers (diff --git, index, ---/+++) can precede the first hunk in raw
      // diffs; GitHub's `patch` starts at the first @@, but tolerate them.
      return /^(diff |index |--- |\+\+\+ |old mode|new mode|similarity|rename |deleted file|new file)/.test(
        raw,
      );
    }
    if (raw.startsWith("\\")) return true; // "\ No newline at end of file"
    const kind = raw.charAt(0);
    const body = raw.slice(1);
    if (kind === "+" && open.newSeen < open.newLines) {
      const line = open.newStart + open.newSeen++;
      open.right.add(line);
      open.added.add(line);
      open.text.set(line, body);
    } else if (kind === "-" && open.oldSeen < open.oldLines) {
      open.left.add(open.oldStart + open.oldSeen++);
    } else if ((kind === " " || raw === "") && open.newSeen < open.newLines && open.oldSeen < open.oldLines) {
      // An empty line inside a hunk is a context line whose trailing space was stripped.
      const line = open.newStart + open.newSeen++;
      open.right.add(line);
      open.left.add(open.oldStart + open.oldSeen++);
      open.text.set(line, body);
    } else {
      return false;
    }
    return true;
  }
}

function start(header: HunkHeader): Open {
  return {
    ...header,
    oldSeen: 0,
    newSeen: 0,
    right: new Set(),
    added: new Set(),
    left: new Set(),
    text: new Map(),
  };
}

function complete(open: Open): boolean {
  return open.oldSeen === open.oldLines && open.newSeen === open.newLines;
}

function close(open: Open): Hunk {
  return {
    oldStart: open.oldStart,
    oldLines: open.oldLines,
    newStart: open.newStart,
    newLines: open.newLines,
    rightLines: open.right,
    addedLines: open.added,
    leftLines: open.left,
    rightText: open.text,
  };
}
