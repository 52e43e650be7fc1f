// Reads a loose object (`objects/ab/cdef…`): a zlib stream of `<type> <size>\0<bytes>`. Local
// repositories opened by `loupe tool`/`loupe review` keep recent objects this way; fetched
// workspaces hold only packs.

import fs from "node:fs";
import path from "node:path";
import { CorruptObjectStoreError, type GitObject, type GitObjectType } from "./git-object.ts";
import { inflatePrefix } from "./inflate-prefix.ts";
import { inflateStream } from "./inflater.ts";

const TYPES = new Set<string>(["commit", "tree", "blob", "tag"]);

/** The object's size from its header alone, or undefined when there is no loose file for this id. */
function readLooseObjectSize(objectsDir: string, oid: string): number | undefined {
  const compressed = readLooseFile(objectsDir, oid, HEADER_PROBE_BYTES);
  if (compressed === undefined) return undefined;
  let prefix: Buffer;
  try {
    prefix = inflatePrefix(compressed, 32);
  } catch (error) {
    throw new CorruptObjectStoreError(`corrupt loose object ${oid}: ${(error as Error).message}`);
  }
  const nul = prefix.indexOf(0);
  const match = /^([a-z]+) (\d+)$/.exec(nul < 0 ? "" : prefix.toString("latin1", 0, nul));
  if (match === null || !TYPES.has(match[1]!))
    throw new CorruptObjectStoreError(`corrupt loose object ${oid}: bad header`);
  return Number(match[2]);
}

/** Compressed bytes that always hold the `<type> <size>\0` header (see inflate-prefix.ts). */
const HEADER_PROBE_BYTES = 32768;

/** The loose file's bytes (at most `limit` of them), or undefined when there is none. */
function readLooseFile(objectsDir: string, oid: string, limit?: number): Buffer | undefined {
  const file = path.join(objectsDir, oid.slice(0, 2), oid.slice(2));
  try {
    if (limit === undefined) return fs.readFileSync(file);
    const fd = fs.openSync(file, "r");
    try {
      const buffer = Buffer.allocUnsafe(limit);
      return buffer.subarray(0, fs.readSync(fd, buffer, 0, limit, 0));
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * The object, or undefined when there is no loose file for this id. Past `maxSize` the inflating
 * stops (the inflater's output cap) and only the size is returned.
 */
export function readLooseObject(
  objectsDir: string,
  oid: string,
  maxSize = Number.POSITIVE_INFINITY,
): GitObject | { readonly tooLarge: number } | undefined {
  const compressed = readLooseFile(objectsDir, oid);
  if (compressed === undefined) return undefined;
  // The header (`<type> <size>\0`) is at most 32 bytes on top of the object itself. The size is
  // unknown until inflated: the first output buffer is a guess, grown as needed.
  const inflated = inflateStream(compressed, maxSize + 32, compressed.byteLength * 3 + 64);
  if (inflated.kind === "over_limit") return { tooLarge: readLooseObjectSize(objectsDir, oid)! };
  if (inflated.kind !== "ended") {
    const why = inflated.kind === "invalid" ? inflated.message : "unexpected end of file";
    throw new CorruptObjectStoreError(`corrupt loose object ${oid}: ${why}`);
  }
  // A guess well over the size would keep its unused bytes alive in the object cache.
  const { data } = inflated;
  const raw = data.buffer.byteLength > 2 * data.byteLength + 4096 ? Buffer.from(data) : data;
  const nul = raw.indexOf(0);
  const header = nul < 0 ? "" : raw.toString("latin1", 0, nul);
  const match = /^([a-z]+) (\d+)$/.exec(header);
  if (match === null || !TYPES.has(match[1]!) || Number(match[2]) !== raw.byteLength - nul - 1) {
    throw new CorruptObjectStoreError(`corrupt loose object ${oid}: bad header`);
  }
  return { type: match[1] as GitObjectType, bytes: raw.subarray(nul + 1) };
}
