// The parts of commits and tags that history walks need: a commit's parents and committer time
// (from its header, which ends at the first blank line), and the object a tag points to.

import { CorruptObjectStoreError } from "./git-object.ts";

export interface CommitHeader {
  readonly parents: readonly string[];
  /** Committer time, seconds since the epoch (0 when the line is missing or malformed). */
  readonly time: number;
}

function headerLines(bytes: Uint8Array): string[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = buffer.indexOf("\n\n");
  return buffer.toString("latin1", 0, end === -1 ? buffer.byteLength : end).split("\n");
}

export function parseCommitHeader(bytes: Uint8Array, oid: string): CommitHeader {
  // Byte by byte: only the parents' ids and the committer time's digits become strings. A history
  // walk parses every commit it passes (20,548 between two rails releases), and most of a
  // commit's header is its author and, for a signed one, a kilobyte of signature.
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const blank = buffer.indexOf("\n\n");
  const end = blank === -1 ? buffer.byteLength : blank;
  const lineEnd = (start: number) => {
    const newline = buffer.indexOf(10, start);
    return newline === -1 || newline > end ? end : newline;
  };
  const firstEnd = lineEnd(0);
  if (
    firstEnd !== TREE.byteLength + 40 ||
    !startsWith(buffer, 0, TREE) ||
    !isHexId(buffer, TREE.byteLength)
  ) {
    throw new CorruptObjectStoreError(`commit ${oid} has no tree line`);
  }
  const parents: string[] = [];
  let time = 0;
  for (let start = firstEnd + 1; start < end; ) {
    const stop = lineEnd(start);
    if (startsWith(buffer, start, PARENT)) {
      const id = start + PARENT.byteLength;
      if (stop - id === 40 && isHexId(buffer, id)) parents.push(buffer.toString("latin1", id, stop));
    } else if (startsWith(buffer, start, COMMITTER)) {
      time = committerTime(buffer, start + COMMITTER.byteLength, stop) ?? time;
    }
    start = stop + 1;
  }
  return { parents, time };
}

const TREE = Buffer.from("tree ");
const PARENT = Buffer.from("parent ");
const COMMITTER = Buffer.from("committer ");
const SPACE = 0x20;
const isDigit = (byte: number) => byte >= 0x30 && byte <= 0x39;
const isLowerHex = (byte: number) => isDigit(byte) || (byte >= 0x61 && byte <= 0x66);

function isHexId(buffer: Buffer, at: number): boolean {
  for (let index = at; index < at + 40; index += 1) if (!isLowerHex(buffer[index]!)) return false;
  return true;
}

/**
 * The seconds of a committer line's `<who> <seconds> <+|-><hhmm>` (what follows `committer `, up
 * to `stop`), as the pattern `^committer .* (\d+) [+-]\d{4}$` reads it: undefined when it does not
 * match (a carriage return in `<who>`, which `.` does not match, included).
 */
function committerTime(buffer: Buffer, from: number, stop: number): number | undefined {
  const zone = stop - 5;
  if (zone - 2 < from || buffer[zone - 1] !== SPACE) return undefined;
  if (buffer[zone] !== 0x2b && buffer[zone] !== 0x2d) return undefined;
  for (let index = zone + 1; index < stop; index += 1) if (!isDigit(buffer[index]!)) return undefined;
  let digits = zone - 1;
  while (digits > from && isDigit(buffer[digits - 1]!)) digits -= 1;
  if (digits === zone - 1 || digits - 1 < from || buffer[digits - 1] !== SPACE) return undefined;
  if (buffer.subarray(from, digits - 1).includes(0x0d)) return undefined;
  return Number(buffer.toString("latin1", digits, zone - 1));
}

function startsWith(buffer: Buffer, at: number, prefix: Buffer): boolean {
  return (
    buffer[at] === prefix[0] &&
    buffer.byteLength - at >= prefix.byteLength &&
    buffer.compare(prefix, 0, prefix.byteLength, at, at + prefix.byteLength) === 0
  );
}

/** The id a tag points to. */
export function tagTarget(bytes: Uint8Array, oid: string): string {
  const match = /^object ([0-9a-f]{40})$/.exec(headerLines(bytes)[0] ?? "");
  if (match === null) throw new CorruptObjectStoreError(`tag ${oid} has no object line`);
  return match[1]!;
}
