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
  const lines = headerLines(bytes);
  if (!/^tree [0-9a-f]{40}$/.test(lines[0] ?? "")) {
    throw new CorruptObjectStoreError(`commit ${oid} has no tree line`);
  }
  const parents: string[] = [];
  let time = 0;
  for (const line of lines.slice(1)) {
    const parent = /^parent ([0-9a-f]{40})$/.exec(line);
    if (parent !== null) parents.push(parent[1]!);
    const committer = /^committer .* (\d+) [+-]\d{4}$/.exec(line);
    if (committer !== null) time = Number(committer[1]);
  }
  return { parents, time };
}

/** The id a tag points to. */
export function tagTarget(bytes: Uint8Array, oid: string): string {
  const match = /^object ([0-9a-f]{40})$/.exec(headerLines(bytes)[0] ?? "");
  if (match === null) throw new CorruptObjectStoreError(`tag ${oid} has no object line`);
  return match[1]!;
}
