// A text file over the diff's read limit is not shown line by line, but it is not binary either,
// and saying "Binary files … differ" would tell the model there is nothing to read. This line
// says what is true: the change is too large to show, with each side's size (from the object
// headers, without inflating anything) and its line count when the blob is small enough to count.

import { looksBinary } from "../workspace/text.ts";
import type { ObjectReader } from "../workspace/types.ts";

/** Larger blobs are sized but not read: their kind and line count stay unknown. */
export const LARGE_FILE_COUNT_BYTES = 16 * 1024 * 1024;
/** Bytes one diff may read to count the lines of large files (a PR of many huge files stays cheap). */
export const LARGE_FILE_READS_PER_DIFF = 64 * 1024 * 1024;

export interface LargeFileReads {
  remaining: number;
}

export interface SideFacts {
  readonly size: number;
  /** undefined: not read (over LARGE_FILE_COUNT_BYTES or the diff's read budget). */
  readonly binary?: boolean;
  readonly lines?: number;
}

/** Lines as git and GitHub count them: a last line without a newline still counts. */
function countLines(bytes: Uint8Array): number {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let lines = 0;
  for (let at = buffer.indexOf(0x0a); at !== -1; at = buffer.indexOf(0x0a, at + 1)) lines += 1;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? lines + 1 : lines;
}

export function factsOfBytes(bytes: Uint8Array): SideFacts {
  return { size: bytes.length, binary: looksBinary(bytes), lines: countLines(bytes) };
}

/** The facts of a blob over the read limit: its size always, the rest if it may be read. */
export async function factsOfLargeBlob(
  objects: ObjectReader,
  oid: string,
  reads: LargeFileReads,
): Promise<SideFacts> {
  const size = await objects.blobSize(oid);
  if (size <= LARGE_FILE_COUNT_BYTES && size <= reads.remaining) {
    reads.remaining -= size;
    const bytes = await objects.readBlobWithin(oid, LARGE_FILE_COUNT_BYTES);
    if (bytes !== "too_large") return { ...factsOfBytes(bytes), size };
  }
  return { size };
}

function describeSide(name: string, facts: SideFacts): string {
  const lines = facts.lines === undefined ? "not read" : `${facts.lines} line${facts.lines === 1 ? "" : "s"}`;
  return `${name}: ${facts.size} byte${facts.size === 1 ? "" : "s"}, ${lines}`;
}

/**
 * The one line shown instead of hunks when a side is over `limit` bytes: git's binary line when
 * either side is binary, otherwise what is known of each side.
 */
export function largeChangeLine(
  oldSide: { readonly name: string; readonly facts: SideFacts } | undefined,
  newSide: { readonly name: string; readonly facts: SideFacts } | undefined,
  limit: number,
): string {
  const oldName = oldSide?.name ?? "/dev/null";
  const newName = newSide?.name ?? "/dev/null";
  const sides = [oldSide, newSide].filter((side) => side !== undefined);
  if (sides.some((side) => side.facts.binary === true))
    return `Binary files ${oldName} and ${newName} differ`;
  const kind = sides.every((side) => side.facts.binary === false) ? "Text files" : "Files";
  const described = sides.map((side) => describeSide(side.name, side.facts)).join("; ");
  return `${kind} ${oldName} and ${newName} differ: too large to show (over ${limit} bytes; ${described})`;
}
