// Scans one file's bytes for search_repository, with the meaning of the plain definition — decode
// the file, split it into git's lines, and find the query in each line — without decoding or
// splitting it: the query's UTF-8 bytes are found in the file's (literal-bytes.ts), in chunks
// that the budget pays for and between which other work may run, and only a line that holds a
// match is decoded, for its excerpt. A match cannot span lines (a query with a newline never
// matches). The `\r` of a CRLF (or a last `\r`) is not part of its line, so a match that ends on
// it is not one; a leading BOM is not part of the first line; a file that is not valid UTF-8 is
// skipped whole, as decoding it would fail.

import { isUtf8 } from "node:buffer";
import type { ByteLiteral, ScanStats } from "./literal-bytes.ts";
import type { SearchBudget, SearchStop } from "./search-budget.ts";

const CHUNK = 64 * 1024;
const LF = 0x0a;
const CR = 0x0d;

export type FileScanEnd =
  | { readonly kind: "searched" }
  /** The caller took no more matches. */
  | { readonly kind: "full" }
  | { readonly kind: "not_text" }
  /** The budget ran out before `line` (1-based) was searched. */
  | { readonly kind: "stopped"; readonly reason: SearchStop; readonly line: number };

export interface FileScan {
  readonly bytes: Buffer;
  readonly literal: ByteLiteral;
  /** Whether the query ends with `\r` (a match ending on a line's CRLF does not count). */
  readonly endsWithCr: boolean;
  readonly budget: SearchBudget;
  /** Takes a matching line (1-based) and its text, and the match's UTF-16 index in it; false stops. */
  readonly onLine: (line: number, text: string, index: number) => boolean;
  readonly stats?: ScanStats;
}

/** Counts lines as the scan moves on: the number and start of the line at `at`. */
class LineCursor {
  line = 1;
  start: number;
  private readonly bytes: Buffer;

  constructor(bytes: Buffer, start: number) {
    this.bytes = bytes;
    this.start = start;
  }

  moveTo(at: number): void {
    for (
      let lf = this.bytes.indexOf(LF, this.start);
      lf >= 0 && lf < at;
      lf = this.bytes.indexOf(LF, lf + 1)
    ) {
      this.line++;
      this.start = lf + 1;
    }
  }
}

export async function scanFile(scan: FileScan): Promise<FileScanEnd> {
  const { bytes, literal, budget } = scan;
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const lines = new LineCursor(bytes, bom);
  let checkedUtf8 = false;
  let at = bom;
  let charged = 0;
  while (at < bytes.length) {
    budget.charge(at - charged);
    charged = at;
    const stop = budget.stop();
    if (stop !== null) {
      lines.moveTo(at);
      return { kind: "stopped", reason: stop, line: lines.line };
    }
    await budget.pause();
    const chunkEnd = Math.min(bytes.length, at + Math.min(CHUNK, Math.max(1, budget.bytesLeft)));
    const start = literal.find(bytes, at, Math.min(bytes.length, chunkEnd + literal.length - 1), scan.stats);
    if (start < 0 || start >= chunkEnd) {
      at = chunkEnd;
      continue;
    }
    const after = start + literal.length;
    if (scan.endsWithCr && (after === bytes.length || bytes[after] === LF)) {
      at = start + 1;
      continue;
    }
    if (!checkedUtf8 && !isUtf8(bytes)) return { kind: "not_text" };
    checkedUtf8 = true;
    lines.moveTo(start);
    const lf = bytes.indexOf(LF, after);
    const lineEnd = lf < 0 ? bytes.length : lf;
    const textEnd = lineEnd > lines.start && bytes[lineEnd - 1] === CR ? lineEnd - 1 : lineEnd;
    const text = bytes.toString("utf8", lines.start, textEnd);
    if (!scan.onLine(lines.line, text, utf16Length(bytes, lines.start, start))) return { kind: "full" };
    at = lineEnd + 1;
  }
  budget.charge(bytes.length - charged);
  return { kind: "searched" };
}

/** The UTF-16 length of the valid UTF-8 in bytes[from, to). */
function utf16Length(bytes: Buffer, from: number, to: number): number {
  let units = 0;
  for (let i = from; i < to; i++) {
    const byte = bytes[i]!;
    if ((byte & 0xc0) !== 0x80) units += byte >= 0xf0 ? 2 : 1;
  }
  return units;
}
