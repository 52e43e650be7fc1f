// Reads a loose object (`objects/ab/cdef…`): a zlib stream of `<type> <size>\0<bytes>`. Local
// repositories opened by `loupe tool`/`loupe review` keep recent objects this way; fetched
// workspaces hold only packs.

import fs from "node:fs";
import path from "node:path";
import { inflateSync } from "node:zlib";
import { CorruptObjectStoreError, type GitObject, type GitObjectType } from "./git-object.ts";

const TYPES = new Set<string>(["commit", "tree", "blob", "tag"]);

/** The object, or undefined when there is no loose file for this id. */
export function readLooseObject(objectsDir: string, oid: string): GitObject | undefined {
  let compressed: Buffer;
  try {
    compressed = fs.readFileSync(path.join(objectsDir, oid.slice(0, 2), oid.slice(2)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  let raw: Buffer;
  try {
    raw = inflateSync(compressed);
  } catch (error) {
    throw new CorruptObjectStoreError(`corrupt loose object ${oid}: ${(error as Error).message}`);
  }
  const nul = raw.indexOf(0);
  const header = nul < 0 ? "" : raw.toString("latin1", 0, nul);
  const match = /^([a-z]+) (\d+)$/.exec(header);
  if (match === null || !TYPES.has(match[1]!) || Number(match[2]) !== raw.byteLength - nul - 1) {
    throw new CorruptObjectStoreError(`corrupt loose object ${oid}: bad header`);
  }
  return { type: match[1] as GitObjectType, bytes: raw.subarray(nul + 1) };
}
