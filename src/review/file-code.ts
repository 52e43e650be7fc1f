// The code of one file as fingerprints read it (fingerprint.ts): each line with its whitespace
// runs made one space and trimmed, blank lines left out, the rest joined with `\n`. Built once per
// file — from the head text, or from the RIGHT lines of GitHub's patch when the head text is not
// at hand — with a table of where each line's text starts, so the code of any range of lines is
// one slice found by binary search: a hundred findings over a megabyte file cost one pass over
// the file, not one each. A server builds it a few thousand lines at a time between turns of the
// event loop.

import { normaliseLine } from "../domain/code-quote.ts";
import type { TimeSlices } from "../domain/time-slices.ts";
import type { Hunk } from "./patch-hunks.ts";

/** Lines between two looks at the clock. */
const LINES_A_SLICE = 4096;

export class FileCode {
  /** Line numbers (1-based, ascending) of the lines that are not blank once normalised. */
  private readonly numbers: Int32Array;
  /** Where each of those lines starts in `text` (and, past the last, text.length + 1). */
  private readonly starts: Int32Array;
  private readonly text: string;

  private constructor(reader: LineReader) {
    const { numbers, lines } = reader;
    this.numbers = Int32Array.from(numbers);
    this.starts = new Int32Array(lines.length + 1);
    let at = 0;
    for (const [index, line] of lines.entries()) {
      this.starts[index] = at;
      at += line.length + 1;
    }
    this.starts[lines.length] = at;
    this.text = lines.join("\n");
  }

  /** The head text's lines, as the head file numbers them. */
  static fromText(text: string): FileCode {
    return FileCode.read(new LineReader(textLines(text)));
  }

  /** The RIGHT lines the patch shows (the first hunk holding a line wins); others are unknown. */
  static fromHunks(hunks: readonly Hunk[]): FileCode {
    return FileCode.read(new LineReader(hunkLines(hunks)));
  }

  /** `fromText`, a few thousand lines at a time between turns of the event loop. */
  static async fromTextInSlices(text: string, slices: TimeSlices): Promise<FileCode> {
    return FileCode.readInSlices(new LineReader(textLines(text)), slices);
  }

  /** `fromHunks`, likewise. */
  static async fromHunksInSlices(hunks: readonly Hunk[], slices: TimeSlices): Promise<FileCode> {
    return FileCode.readInSlices(new LineReader(hunkLines(hunks)), slices);
  }

  private static read(reader: LineReader): FileCode {
    reader.read(Number.POSITIVE_INFINITY);
    return new FileCode(reader);
  }

  private static async readInSlices(reader: LineReader, slices: TimeSlices): Promise<FileCode> {
    while (!reader.read(LINES_A_SLICE)) await slices.pause();
    return new FileCode(reader);
  }

  /** The normalised code of lines first..last (inclusive). */
  code(first: number, last: number): string {
    const from = this.firstAtOrAfter(first);
    const to = this.firstAtOrAfter(last + 1);
    return from >= to ? "" : this.text.slice(this.starts[from]!, this.starts[to]! - 1);
  }

  /** The index of the first known line numbered `number` or more. */
  private firstAtOrAfter(number: number): number {
    let low = 0;
    let high = this.numbers.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.numbers[middle]! < number) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** Whitespace that normalising changes inside a trimmed line: a run of two, or other than a space. */
/** Numbered lines, one at a time (null after the last). */
type Lines = () => readonly [number, string] | null;

/** A text's lines as split on `\n` (a CR before it is whitespace, so normalising drops it). */
function textLines(text: string): Lines {
  let at = 0;
  let number = 0;
  return () => {
    if (at > text.length) return null;
    const lf = text.indexOf("\n", at);
    const end = lf < 0 ? text.length : lf;
    const line = text.slice(at, end);
    at = end + 1;
    return [++number, line];
  };
}

function hunkLines(hunks: readonly Hunk[]): Lines {
  const lines = new Map<number, string>();
  for (const hunk of hunks)
    for (const [number, text] of hunk.rightText) if (!lines.has(number)) lines.set(number, text);
  const sorted = [...lines].sort((a, b) => a[0] - b[0]);
  let index = 0;
  return () => sorted[index++] ?? null;
}

/** Normalises numbered lines in steps, keeping those that are not blank. */
class LineReader {
  readonly numbers: number[] = [];
  readonly lines: string[] = [];
  private readonly source: Lines;

  constructor(source: Lines) {
    this.source = source;
  }

  /** Reads up to `count` lines; true once there are no more. */
  read(count: number): boolean {
    for (let n = 0; n < count; n++) {
      const next = this.source();
      if (next === null) return true;
      const line = normaliseLine(next[1]);
      if (line === "") continue;
      this.numbers.push(next[0]);
      this.lines.push(line);
    }
    return false;
  }
}
