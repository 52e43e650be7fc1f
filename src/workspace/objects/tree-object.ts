// Parses the two object kinds a snapshot walks: a tree (`<octal mode> <name>\0<20-byte id>`
// repeated) and a commit's `tree` line. Modes are canonicalised the way git does (an old
// `100664` is a regular file), and names that could alias something else once joined into a
// path (empty, `.`, `..`, containing `/`, or `.git` in any case) are dropped: git's own fsck
// rejects all of them, and `.git` is never visible to the tools.

import { CorruptObjectStoreError } from "./git-object.ts";

export type TreeItemKind = "tree" | "file" | "executable" | "symlink" | "submodule";

export interface TreeItem {
  readonly name: string;
  readonly kind: TreeItemKind;
  readonly oid: string;
}

const TYPE_MASK = 0o170000;

function kindOf(mode: number): TreeItemKind | undefined {
  switch (mode & TYPE_MASK) {
    case 0o040000:
      return "tree";
    case 0o100000:
      return (mode & 0o100) === 0 ? "file" : "executable";
    case 0o120000:
      return "symlink";
    case 0o160000:
      return "submodule";
    default:
      return undefined;
  }
}

function isHiddenOrAliasing(name: string): boolean {
  return name === "" || name === "." || name === ".." || name.includes("/") || name.toLowerCase() === ".git";
}

/**
 * The mode written in bytes [start, end): one to seven octal digits, read without a string (a
 * walk parses every entry of every tree); -1 for anything else.
 */
function octalMode(data: Buffer, start: number, end: number): number {
  if (end - start < 1 || end - start > 7) return -1;
  let mode = 0;
  for (let at = start; at < end; at += 1) {
    const digit = data[at]! - 0x30;
    if (digit < 0 || digit > 7) return -1;
    mode = mode * 8 + digit;
  }
  return mode;
}

export function parseTree(bytes: Uint8Array, oid: string): TreeItem[] {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const items: TreeItem[] = [];
  let cursor = 0;
  while (cursor < data.byteLength) {
    const space = data.indexOf(0x20, cursor);
    const nul = space < 0 ? -1 : data.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > data.byteLength) {
      throw new CorruptObjectStoreError(`tree ${oid} is malformed at byte ${cursor}`);
    }
    const kind = kindOf(octalMode(data, cursor, space));
    if (kind === undefined) {
      const modeText = data.toString("latin1", cursor, space);
      throw new CorruptObjectStoreError(`tree ${oid} has an entry with mode ${modeText}`);
    }
    const name = data.toString("utf8", space + 1, nul);
    if (!isHiddenOrAliasing(name)) items.push({ name, kind, oid: data.toString("hex", nul + 1, nul + 21) });
    cursor = nul + 21;
  }
  return items;
}

/** The root tree id of a commit object. */
export function commitTreeId(bytes: Uint8Array, oid: string): string {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 46)).toString("latin1");
  const match = /^tree ([0-9a-f]{40})\n/.exec(head);
  if (match === null) throw new CorruptObjectStoreError(`commit ${oid} has no tree line`);
  return match[1]!;
}
