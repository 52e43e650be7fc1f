// Reads single entries of one pack (`.pack` + its `.idx`) with positional reads, so a pack of any
// size costs only the bytes of the entries actually read. An entry is a whole object or a delta
// against a base named by pack offset (OFS_DELTA) or by id (REF_DELTA, also a base outside this
// pack when the pack is thin). Reads are synchronous on purpose: the files sit in a local
// temporary directory (page cache), and each read is one small `pread`, far cheaper than a
// round trip through the libuv thread pool.

import fs from "node:fs";
import { inflateSync } from "node:zlib";
import { deltaResultSize } from "./delta.ts";
import { parseEntryHeader } from "./entry-header.ts";
import { CorruptObjectStoreError, type GitObjectType } from "./git-object.ts";
import { inflatePrefix } from "./inflate-prefix.ts";
import { type PackIndex, parsePackIndex } from "./pack-index.ts";

const TRAILER = 20;

export type PackEntry =
  | { readonly kind: "whole"; readonly type: GitObjectType; readonly bytes: Uint8Array }
  /** Only from a bounded read: the object is larger than asked for, and was not inflated. */
  | { readonly kind: "too_large"; readonly size: number }
  | { readonly kind: "ofs_delta"; readonly baseOffset: number; readonly delta: Uint8Array }
  | { readonly kind: "ref_delta"; readonly baseOid: string; readonly delta: Uint8Array };

export interface PackFile {
  readonly index: PackIndex;
  /**
   * The entry at `offset`. With `maxObjectSize`, an entry whose object is larger (a whole object by
   * its header, a delta by its result size) comes back as `too_large`: a whole object or a large
   * delta is not inflated, a small delta is, but its object is never built.
   */
  readEntry(offset: number, maxObjectSize?: number): PackEntry;
  close(): void;
}

function corrupt(packName: string, what: string): CorruptObjectStoreError {
  return new CorruptObjectStoreError(`corrupt pack ${packName}: ${what}`);
}

/** Opens a pack whose index this reader understands; undefined for an unknown index version. */
export function openPackFile(packPath: string, idxPath: string, packName: string): PackFile | undefined {
  const index = parsePackIndex(fs.readFileSync(idxPath));
  if (index === undefined) return undefined;
  const fd = fs.openSync(packPath, "r");
  try {
    const size = fs.fstatSync(fd).size;
    if (size < 12 + TRAILER) throw corrupt(packName, "not a pack file");
    const header = readAt(fd, 0, 12);
    const trailer = readAt(fd, size - TRAILER, TRAILER);
    if (header.toString("latin1", 0, 4) !== "PACK") throw corrupt(packName, "not a pack file");
    const version = header.readUInt32BE(4);
    if (version !== 2 && version !== 3) throw corrupt(packName, `unsupported version ${version}`);
    if (trailer.toString("hex") !== index.packChecksum) {
      throw corrupt(packName, "the pack does not match its index");
    }
    return {
      index,
      readEntry: (offset, maxObjectSize) =>
        readEntry(fd, index, offset, size - TRAILER, packName, maxObjectSize),
      close: () => fs.closeSync(fd),
    };
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(Math.max(0, length));
  const read = length <= 0 ? 0 : fs.readSync(fd, buffer, 0, length, position);
  return buffer.subarray(0, read);
}

function readEntry(
  fd: number,
  index: PackIndex,
  offset: number,
  dataEnd: number,
  packName: string,
  maxObjectSize = Number.POSITIVE_INFINITY,
): PackEntry {
  if (!(offset >= 12 && offset < dataEnd)) throw corrupt(packName, `entry offset ${offset} is out of range`);
  const length = index.entryEnd(offset, dataEnd) - offset;
  // Most entries fit the first read; a larger one is read whole only once it is wanted.
  let raw = readAt(fd, offset, Math.min(length, SIZE_PROBE_BYTES));
  const header = parseEntryHeader(raw, 0, offset, (what) => corrupt(packName, what));
  if (header.kind === "whole" && header.size > maxObjectSize) return { kind: "too_large", size: header.size };
  if (
    header.kind !== "whole" &&
    header.size > SIZE_PROBE_BYTES &&
    maxObjectSize !== Number.POSITIVE_INFINITY
  ) {
    const resultSize = deltaSizeOf(raw, header.dataStart, offset, packName);
    if (resultSize > maxObjectSize) return { kind: "too_large", size: resultSize };
  }
  if (raw.byteLength < length) raw = readAt(fd, offset, length);
  const data = inflate(raw, header.dataStart, header.size, packName);
  // A small delta is inflated first (cheaper than a second zlib stream); its result size follows.
  if (header.kind !== "whole" && maxObjectSize !== Number.POSITIVE_INFINITY) {
    const resultSize = deltaResultSize(data);
    if (resultSize > maxObjectSize) return { kind: "too_large", size: resultSize };
  }
  if (header.kind === "ofs_delta") return { kind: "ofs_delta", baseOffset: header.baseOffset, delta: data };
  if (header.kind === "ref_delta") return { kind: "ref_delta", baseOid: header.baseOid, delta: data };
  if (header.kind === "whole") return { kind: "whole", type: header.type, bytes: data };
  throw corrupt(packName, `entry at ${offset} has an unexpected kind`);
}

function deltaSizeOf(raw: Buffer, dataStart: number, offset: number, packName: string): number {
  try {
    return deltaResultSize(inflatePrefix(raw.subarray(dataStart), 20));
  } catch (error) {
    throw corrupt(packName, `cannot read the delta at ${offset} (${(error as Error).message})`);
  }
}

/** Enough compressed bytes for any entry header and the start of its data. */
const SIZE_PROBE_BYTES = 64 + 32768;

function inflate(raw: Buffer, start: number, size: number, packName: string): Uint8Array {
  let bytes: Buffer;
  try {
    // One output chunk of the declared size is the fastest way through node:zlib, and the cap
    // (one byte over) means a lying header can never make us inflate more than it declared.
    bytes = inflateSync(raw.subarray(start), {
      chunkSize: Math.max(64, Math.min(size + 1, 1 << 22)),
      maxOutputLength: Math.max(1, size + 1),
    });
  } catch (error) {
    throw corrupt(packName, `cannot inflate an entry (${(error as Error).message})`);
  }
  if (bytes.byteLength !== size) {
    throw corrupt(packName, `an entry inflates to ${bytes.byteLength} bytes, not the declared ${size}`);
  }
  return bytes;
}
