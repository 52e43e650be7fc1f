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
  // Line by line over the bytes: only `parent` and `committer` lines become strings. A history
  // walk parses every commit it passes (11,000 between two rails releases), and most of a
  // commit's header is its author and, for a signed one, a kilobyte of signature.
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const blank = buffer.indexOf("\n\n");
  const end = blank === -1 ? buffer.byteLength : blank;
  const lineEnd = (start: number) => {
    const newline = buffer.indexOf(10, start);
    return newline === -1 || newline > end ? end : newline;
  };
  const firstEnd = lineEnd(0);
  if (!/^tree [0-9a-f]{40}$/.test(buffer.toString("latin1", 0, firstEnd))) {
    throw new CorruptObjectStoreError(`commit ${oid} has no tree line`);
  }
  const parents: string[] = [];
  let time = 0;
  for (let start = firstEnd + 1; start < end; ) {
    const stop = lineEnd(start);
    if (startsWith(buffer, start, PARENT)) {
      const parent = /^parent ([0-9a-f]{40})$/.exec(buffer.toString("latin1", start, stop));
      if (parent !== null) parents.push(parent[1]!);
    } else if (startsWith(buffer, start, COMMITTER)) {
      const committer = /^committer .* (\d+) [+-]\d{4}$/.exec(buffer.toString("latin1", start, stop));
      if (committer !== null) time = Number(committer[1]);
    }
    start = stop + 1;
  }
  return { parents, time };
}

const PARENT = Buffer.from("parent ");
const COMMITTER = Buffer.from("committer ");

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
