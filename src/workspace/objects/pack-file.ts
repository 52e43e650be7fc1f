// Reads single entries of one pack (`.pack` + its `.idx`) with positional reads, so a pack of any
// size costs only the bytes of the entries actually read. An entry is a whole object or a delta against a base named by pack offset
// (OFS_DELTA) or by id (REF_DELTA, also a base outside this pack when the pack is thin). Reads are
// synchronous on purpose: the files sit in a local directory (page cache), and each read is one
// small `pread`, far cheaper than a round trip through the libuv thread pool. The compressed bytes
// are read into one reused buffer: they are inflated at once and never kept, and fresh memory is
// what costs here (every new page is a page fault: bench/README.md, "The loupe command").

import fs from "node:fs";
import { deltaResultSize } from "./delta.ts";
import { parseEntryHeader } from "./entry-header.ts";
import { CorruptObjectStoreError, type GitObjectType } from "./git-object.ts";
import { inflatePrefix } from "./inflate-prefix.ts";
import { type Inflation, inflateStream } from "./inflater.ts";
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
    const reader = createEntryReader(fd, size);
    const header = Buffer.from(reader.read(0, 12));
    const trailer = reader.read(size - TRAILER, TRAILER);
    if (header.toString("latin1", 0, 4) !== "PACK") throw corrupt(packName, "not a pack file");
    const version = header.readUInt32BE(4);
    if (version !== 2 && version !== 3) throw corrupt(packName, `unsupported version ${version}`);
    if (trailer.toString("hex") !== index.packChecksum) {
      throw corrupt(packName, "the pack does not match its index");
    }
    return {
      index,
      readEntry: (offset, maxObjectSize) =>
        readEntry(reader, index, offset, size - TRAILER, packName, maxObjectSize),
      close: () => fs.closeSync(fd),
    };
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

/** Reuses one buffer for entries up to this size; a larger one is read into its own. */
const SCRATCH_MAX_BYTES = 1024 * 1024;
/**
 * Entries are read through a few windows of the pack, each one `pread` of this size: a search or
 * a history walk reads entries that lie near each other (git writes a commit's objects together),
 * and one read then serves dozens of them. A `pread` costs about the same for 4 KiB as for 64 KiB
 * (the call, not the copy), so an entry far from the others costs no more than before.
 */
const WINDOW_BYTES = 64 * 1024;
/** A delta and its base usually lie apart: a window for each, and for the next entries of each. */
const WINDOWS = 4;

interface EntryReader {
  /** Bytes [position, position + length), fewer only at the end; valid until the next read. */
  read(position: number, length: number): Buffer;
}

interface Window {
  start: number;
  end: number;
  readonly bytes: Buffer;
}

function createEntryReader(fd: number, fileSize: number): EntryReader {
  let scratch = Buffer.allocUnsafe(SIZE_PROBE_BYTES);
  // Most recently used first; made on first use.
  const windows: Window[] = [];
  const fromWindow = (position: number, length: number): Buffer | undefined => {
    for (let index = 0; index < windows.length; index += 1) {
      const window = windows[index]!;
      if (position < window.start || position + length > window.end) continue;
      if (index > 0) {
        windows.splice(index, 1);
        windows.unshift(window);
      }
      return window.bytes.subarray(position - window.start, position - window.start + length);
    }
    return undefined;
  };
  return {
    read(position, length) {
      const wanted = Math.max(0, Math.min(length, fileSize - position));
      if (wanted <= WINDOW_BYTES) {
        const held = fromWindow(position, wanted);
        if (held !== undefined) return held;
        const window =
          windows.length < WINDOWS
            ? { start: 0, end: 0, bytes: Buffer.allocUnsafe(WINDOW_BYTES) }
            : windows.pop()!;
        const read = fs.readSync(fd, window.bytes, 0, Math.min(WINDOW_BYTES, fileSize - position), position);
        window.start = position;
        window.end = position + read;
        windows.unshift(window);
        return window.bytes.subarray(0, Math.min(read, wanted));
      }
      if (length > scratch.byteLength && length <= SCRATCH_MAX_BYTES) scratch = Buffer.allocUnsafe(length);
      const into = length <= scratch.byteLength ? scratch : Buffer.allocUnsafe(length);
      const read = fs.readSync(fd, into, 0, length, position);
      return into.subarray(0, read);
    },
  };
}

function readEntry(
  reader: EntryReader,
  index: PackIndex,
  offset: number,
  dataEnd: number,
  packName: string,
  maxObjectSize = Number.POSITIVE_INFINITY,
): PackEntry {
  if (!(offset >= 12 && offset < dataEnd)) throw corrupt(packName, `entry offset ${offset} is out of range`);
  // Most entries fit the first read; a larger one is read whole only once it is wanted. The first
  // read is small: a history walk reads tens of thousands of commits of a few hundred bytes each.
  let raw = reader.read(offset, Math.min(dataEnd - offset, FIRST_READ_BYTES));
  const header = parseEntryHeader(raw, 0, offset, (what) => corrupt(packName, what));
  if (header.kind === "whole" && header.size > maxObjectSize) return { kind: "too_large", size: header.size };
  if (
    header.kind !== "whole" &&
    header.size > SIZE_PROBE_BYTES &&
    maxObjectSize !== Number.POSITIVE_INFINITY
  ) {
    if (raw.byteLength < SIZE_PROBE_BYTES)
      raw = reader.read(offset, Math.min(dataEnd - offset, SIZE_PROBE_BYTES));
    const resultSize = deltaSizeOf(raw, header.dataStart, offset, packName);
    if (resultSize > maxObjectSize) return { kind: "too_large", size: resultSize };
  }
  // How far the entry reaches, from its declared size: zlib never makes data much larger than it
  // is. Finding the next entry's offset instead means sorting every offset of the index, which
  // on a pack of a million objects cost more CPU than a diff's reads (bench/README.md, "Drift").
  let length = Math.min(dataEnd - offset, header.dataStart + compressedBound(header.size));
  if (raw.byteLength < length) raw = reader.read(offset, length);
  let inflated = inflateStream(raw.subarray(header.dataStart), header.size, header.size);
  if (inflated.kind === "truncated" && length < dataEnd - offset) {
    // A stream padded past that bound (valid, but no git writes one): read up to the next entry.
    length = index.entryEnd(offset, dataEnd) - offset;
    raw = reader.read(offset, length);
    inflated = inflateStream(raw.subarray(header.dataStart), header.size, header.size);
  }
  const data = inflatedData(inflated, header.size, packName);
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

/** zlib's own worst case (stored blocks) is 5 bytes per 16 KiB plus 11; this is well above it. */
function compressedBound(size: number): number {
  return size + (size >>> 3) + 64;
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
/** Holds a commit, a tree or a small file whole, compressed, and any entry's header. */
const FIRST_READ_BYTES = 4096;

function inflatedData(inflated: Inflation, size: number, packName: string): Uint8Array {
  // The declared size sized the output exactly, and was also the cap: a lying header can never
  // make us inflate more than it declared.
  if (inflated.kind === "ended" && inflated.data.byteLength === size) return inflated.data;
  if (inflated.kind === "invalid" || inflated.kind === "truncated") {
    const why = inflated.kind === "invalid" ? inflated.message : "unexpected end of file";
    throw corrupt(packName, `cannot inflate an entry (${why})`);
  }
  const what = inflated.kind === "ended" ? `${inflated.data.byteLength} bytes` : "more bytes";
  throw corrupt(packName, `an entry inflates to ${what}, not the declared ${size}`);
}
