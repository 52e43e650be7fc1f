// The one reader of a unified-diff patch (a host's `patch` for one file: GitHub's compare
// `files[].patch`, GitLab's `diff`, Loupe's own): its hunk headers, its lines with their numbers,
// and the hunks they make. These hunks are the only source of truth for which lines can take a
// review comment: one comment outside them makes the forge reject the whole review.

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
function hunkHeader(line: string): HunkHeader | null {
  const header = line.startsWith("@@") ? HEADER.exec(line) : null;
  if (header === null) return null;
  return {
    oldStart: Number(header[1]),
    oldLines: header[2] === undefined ? 1 : Number(header[2]),
    newStart: Number(header[3]),
    newLines: header[4] === undefined ? 1 : Number(header[4]),
  };
}

/**
 * What a walk over a patch is told, in order: each hunk's header, then each of its body lines
 * with the numbers it has — a "+" line its new number and the old number the next old line would
 * take, a "-" line its old number and the next new number, a context line both.
 */
export interface PatchVisitor {
  hunk?(header: HunkHeader): void;
  line(kind: "+" | "-" | " ", oldLine: number, newLine: number, text: string): void;
}

/**
 * Walks a unified-diff patch: the one reader of its lines, whoever needs them (the hunks a comment
 * may anchor to, the lines a push touched, GitLab's note positions). False when the patch is
 * malformed (a body line before any header, a hunk whose line counts disagree with its header, an
 * unknown line prefix): the visitor has then seen only the lines before the fault.
 */
export function walkPatch(patch: string, visitor: PatchVisitor): boolean {
  const walker = new PatchWalker(patch, visitor);
  walker.read(Number.POSITIVE_INFINITY);
  return walker.wellFormed();
}

/** A file's diff text as a host's `patch` (its hunks from the first `@@`; none: binary), and its counts. */
export function patchOf(diff: string): { patch: string | null; additions: number; deletions: number } {
  const start = diff.startsWith("@@") ? 0 : diff.indexOf("\n@@") + 1;
  if (start === 0 && !diff.startsWith("@@")) return { patch: null, additions: 0, deletions: 0 };
  const counts = { patch: diff.slice(start).replace(/\n$/, ""), additions: 0, deletions: 0 };
  walkPatch(counts.patch, {
    line(kind) {
      if (kind === "+") counts.additions++;
      else if (kind === "-") counts.deletions++;
    },
  });
  return counts;
}

/**
 * Returns the hunks of a unified-diff patch. A malformed patch yields [] rather than a partial
 * answer: a wrong commentable set is worse than none, since it causes the 422.
 */
export function parsePatch(patch: string): Hunk[] {
  const hunks = new HunkCollector();
  return walkPatch(patch, hunks) ? hunks.hunks : [];
}

/** `parsePatch`, reading a few thousand lines at a time between turns of the event loop. */
export async function parsePatchInSlices(patch: string, slices: TimeSlices): Promise<Hunk[]> {
  const hunks = new HunkCollector();
  const walker = new PatchWalker(patch, hunks);
  while (!walker.read(LINES_A_SLICE)) await slices.pause();
  return walker.wellFormed() ? hunks.hunks : [];
}

/** Lines between two looks at the clock. */
const LINES_A_SLICE = 4096;

interface OpenHunk extends HunkHeader {
  oldSeen: number;
  newSeen: number;
}

class PatchWalker {
  private readonly lines: string[];
  private readonly visitor: PatchVisitor;
  private next = 0;
  private open: OpenHunk | null = null;
  private failed = false;

  constructor(patch: string, visitor: PatchVisitor) {
    this.visitor = visitor;
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

  /** Every line read, and the last hunk as long as its header says. */
  wellFormed(): boolean {
    return !this.failed && (this.open === null || complete(this.open));
  }

  /** Takes one line; false when it makes the patch malformed. */
  private line(raw: string): boolean {
    const header = hunkHeader(raw);
    const open = this.open;
    if (header !== null) {
      if (open !== null && !complete(open)) return false;
      this.open = { ...header, oldSeen: 0, newSeen: 0 };
      this.visitor.hunk?.(header);
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
    const oldLine = open.oldStart + open.oldSeen;
    const newLine = open.newStart + open.newSeen;
    if (kind === "+" && open.newSeen < open.newLines) {
      open.newSeen++;
      this.visitor.line("+", oldLine, newLine, raw.slice(1));
    } else if (kind === "-" && open.oldSeen < open.oldLines) {
      open.oldSeen++;
      this.visitor.line("-", oldLine, newLine, raw.slice(1));
    } else if ((kind === " " || raw === "") && open.newSeen < open.newLines && open.oldSeen < open.oldLines) {
      // An empty line inside a hunk is a context line whose trailing space was stripped.
      open.newSeen++;
      open.oldSeen++;
      this.visitor.line(" ", oldLine, newLine, raw.slice(1));
    } else {
      return false;
    }
    return true;
  }
}

function complete(open: OpenHunk): boolean {
  return open.oldSeen === open.oldLines && open.newSeen === open.newLines;
}

/** The hunks of a walk, each with its RIGHT, added and LEFT lines and its RIGHT text. */
class HunkCollector implements PatchVisitor {
  readonly hunks: (Hunk & {
    rightLines: Set<number>;
    addedLines: Set<number>;
    leftLines: Set<number>;
    rightText: Map<number, string>;
  })[] = [];

  hunk(header: HunkHeader): void {
    this.hunks.push({
      ...header,
      rightLines: new Set(),
      addedLines: new Set(),
      leftLines: new Set(),
      rightText: new Map(),
    });
  }

  line(kind: "+" | "-" | " ", oldLine: number, newLine: number, text: string): void {
    const hunk = this.hunks[this.hunks.length - 1]!;
    if (kind !== "-") hunk.rightLines.add(newLine);
    if (kind !== "-") hunk.rightText.set(newLine, text);
    if (kind === "+") hunk.addedLines.add(newLine);
    if (kind !== "+") hunk.leftLines.add(oldLine);
  }
}
