// Indexes a pack that has just been received, the job of `git index-pack`: walks its entries in
// order, inflating each with node:zlib (which reports how many compressed bytes it used, so the
// next entry's offset is known) and hashing every whole object, then resolves the deltas the way
// git does: from each base down through the deltas made on it, depth first, so that only the
// chain being resolved is in memory (a thin pack's bases come from the store). The pack is read
// through a moving window and the entries are kept in typed arrays (pack-table.ts), so memory is
// a few megabytes of pack, the longest delta chain and a few dozen bytes per entry, whatever the
// pack's size; isomorphic-git's pure-JS indexer held the whole pack and peaked near six times it.
//
// Like `git index-pack` behind `git fetch`, the first walk can run while the pack arrives
// (`startPackIndex`'s `advance`): the entries are scanned as the bytes that hold them come in,
// while the server is still sending, and only the rest, the checksum and the deltas wait for the
// end. What `advance` cannot finish yet (or finds damaged) is left to `finish`, which walks the
// same code on the whole pack, so the outcome and its errors are the same as indexing at the end.

import { createHash } from "node:crypto";
import { parseEntryHeader } from "./entry-header.ts";
import type { GitObject } from "./git-object.ts";
import {
  corruptPack,
  createPackEntryReader,
  type PackEntryReader,
  STREAM_ABOVE,
} from "./pack-entry-reader.ts";
import { writeColumnsIndex } from "./pack-index-writer.ts";
import type { PackSource } from "./pack-source.ts";
import { createPackTable, entryAt, type PackTable, recordObjectId, TYPE_CODES } from "./pack-table.ts";
import { resolveDeltas } from "./resolve-deltas.ts";

export interface IndexPackOptions {
  readonly source: PackSource;
  /** An object outside this pack (a thin pack's delta base), or undefined when the store lacks it. */
  readonly readExternal: (oid: string) => Promise<GitObject | undefined>;
  /** How much of the pack one read brings in (default 8 MiB). */
  readonly windowBytes?: number;
}

export interface IndexedPack {
  /** The pack's checksum (hex): git names the files pack-<checksum>.pack/.idx. */
  readonly checksum: string;
  readonly objectCount: number;
  /** The version-2 `.idx` bytes. */
  readonly index: Buffer;
}

const HEADER = 12;
const TRAILER = 20;
const WINDOW = 8 * 1024 * 1024;
/** More than any entry header needs (type and size varint, then a 20-byte id or an offset). */
const MAX_ENTRY_HEADER = 64;
const MIN_ENTRY_BYTES = 7;
const RETRY_BYTES = 4096;

const corrupt = corruptPack;

/** Indexes a whole pack. */
export async function indexPack(options: IndexPackOptions): Promise<IndexedPack> {
  return await startPackIndex(options).finish(options.source);
}

/** A pack indexed as it arrives: its entries scanned while it is written, the rest at the end. */
export interface PackIndexing {
  /**
   * Scans the entries that the first `available` bytes of `source` (a pack still being written)
   * hold whole; answers how many are scanned so far. Never throws: what it cannot scan yet, or
   * finds damaged, `finish` does.
   */
  advance(source: PackSource, available: number): Promise<number>;
  /** The whole pack is in `source`: checks it, scans what is left and resolves the deltas. */
  finish(source: PackSource): Promise<IndexedPack>;
}

export function startPackIndex(options: Omit<IndexPackOptions, "source">): PackIndexing {
  const windowBytes = options.windowBytes ?? WINDOW;
  let scan: EntryScan | undefined;
  let stopped = false;
  return {
    async advance(source, available) {
      if (stopped || available < HEADER + MAX_ENTRY_HEADER) return scan?.scanned() ?? 0;
      try {
        if (scan === undefined) {
          const count = Buffer.from(source.read(0, HEADER)).readUInt32BE(8);
          // The pack's size is not known yet: its tables are sized once what is in could hold them.
          if (count > (available - HEADER) / MIN_ENTRY_BYTES) return 0;
          scan = createEntryScan(count);
        }
        stopped = !(await scan.scan(createPackEntryReader(source, available, windowBytes), available, false));
      } catch {
        stopped = true; // damaged, or unlike what git writes: `finish` scans it again and tells
      }
      return scan?.scanned() ?? 0;
    },
    async finish(source) {
      const { count, checksum, dataEnd } = verifyPack(source, windowBytes);
      if (scan === undefined || scan.table.count !== count) scan = createEntryScan(count);
      const reader = createPackEntryReader(source, dataEnd, windowBytes);
      await scan.scan(reader, dataEnd, true);
      // The deltas' bases lie mostly near them, at the pack's end: take its last window in one
      // read, as a scan at the end leaves it (a pack up to the window's size is then read once).
      reader.view(Math.max(HEADER, dataEnd - windowBytes), windowBytes);
      const { table } = scan;
      await resolveDeltas(table, reader, options.readExternal);
      return {
        checksum: checksum.toString("hex"),
        objectCount: count,
        index: writeColumnsIndex(table, checksum),
      };
    },
  };
}

/** The pack's header and trailing checksum, checked over the whole pack before anything else. */
function verifyPack(source: PackSource, windowBytes: number) {
  const dataEnd = source.size - TRAILER;
  const start = Buffer.from(source.read(0, HEADER)); // copies: the next read reuses the bytes
  if (dataEnd < HEADER || start.toString("latin1", 0, 4) !== "PACK") throw corrupt("not a pack file");
  const version = start.readUInt32BE(4);
  if (version !== 2 && version !== 3) throw corrupt(`unsupported version ${version}`);
  const count = start.readUInt32BE(8);
  // Every entry is at least a header byte and a zlib stream's 2-byte header and 4-byte checksum:
  // a count the bytes cannot hold would only size the tables for a lie.
  if (count > (dataEnd - HEADER) / MIN_ENTRY_BYTES) {
    throw corrupt(`it declares ${count} entries, more than its ${dataEnd - HEADER} bytes can hold`);
  }
  const checksum = Buffer.from(source.read(dataEnd, TRAILER));
  const hash = createHash("sha1");
  for (let at = 0; at < dataEnd; at += windowBytes) {
    hash.update(source.read(at, Math.min(windowBytes, dataEnd - at)));
  }
  if (!hash.digest().equals(checksum)) throw corrupt("its checksum does not match its contents");
  return { count, checksum, dataEnd };
}

/** Pass 1, resumable: where it has got to in the pack, and what it knows of the entries so far. */
interface EntryScan {
  readonly table: PackTable;
  /**
   * Scans entries up to `dataEnd`. With `complete` false the pack is still arriving and `dataEnd`
   * is how much of it is in: an entry it does not hold whole is left for a later call, and a
   * whole object too large to hold stops the scan (answers false). With `complete` true the scan
   * reaches the pack's end, or throws.
   */
  scan(reader: PackEntryReader, dataEnd: number, complete: boolean): Promise<boolean>;
  /** How many entries are scanned. */
  scanned(): number;
}

function createEntryScan(count: number): EntryScan {
  const table = createPackTable(count);
  let n = 0;
  let offset = HEADER;
  // How much must be in before the entry waited for is tried (again).
  let retryAt = 0;
  return {
    table,
    scanned: () => n,
    async scan(reader, end, complete) {
      for (; n < table.count; n += 1) {
        if (offset >= end) {
          if (!complete) return true;
          throw corrupt(`it ends after ${n} of its ${table.count} entries`);
        }
        if (!complete && (offset + MAX_ENTRY_HEADER > end || end < retryAt)) return true;
        const next = await scanEntry(table, reader, n, offset, complete ? undefined : end);
        if (next === "stop") return false;
        if (typeof next === "object") {
          retryAt = next.waitUntil;
          return true;
        }
        offset = next;
      }
      if (complete) {
        if (offset !== end) throw corrupt("it has bytes after its last entry");
        table.offsets[table.count] = offset;
      }
      return true;
    },
  };
}

/**
 * Entry n at `offset`: its extent, CRC and base, and its id if it is a whole object; answers where
 * the next entry starts. With `available` (the pack still arriving), an entry cut short is left for
 * later (answers how much must be in to try it again: twice what had come, so that a large entry
 * is inflated a few times in all, not once a piece), and an object too large to hold stops the
 * early scan.
 */
async function scanEntry(
  table: PackTable,
  reader: PackEntryReader,
  n: number,
  offset: number,
  available?: number,
): Promise<number | { readonly waitUntil: number } | "stop"> {
  const { view, inflateAt, inflateArrived, streamWhole, crcOf } = reader;
  // While the pack arrives, the header is read alone: an entry still coming in is looked at again
  // at every piece, and reading all of it that is there each time would cost its size squared.
  const ahead = available === undefined ? undefined : MAX_ENTRY_HEADER;
  const header = parseEntryHeader(view(offset, MAX_ENTRY_HEADER, ahead), 0, offset, (what) => corrupt(what));
  const dataStart = offset + header.dataStart;
  const large = header.kind === "whole" && header.size > STREAM_ABOVE;
  if (available !== undefined && large) return "stop";
  let inflated: { data: Buffer; compressed: number } | undefined;
  if (available !== undefined && !large) {
    const arrived = inflateArrived(dataStart, header.size);
    if (arrived === "truncated")
      return { waitUntil: dataStart + 2 * Math.max(available - dataStart, RETRY_BYTES) };
    inflated = arrived;
  }
  table.offsets[n] = offset;
  table.sizes[n] = header.size;
  table.headerLengths[n] = header.dataStart;
  let end: number;
  if (header.kind === "whole" && large) {
    const streamed = await streamWhole(dataStart, header.type, header.size);
    end = dataStart + streamed.compressed;
    table.oids.set(Buffer.from(streamed.oid, "hex"), n * 20);
    table.kinds[n] = TYPE_CODES[header.type];
  } else {
    const { data, compressed } = inflated ?? inflateAt(dataStart, header.size);
    end = dataStart + compressed;
    if (header.kind === "whole") recordObjectId(table, n, header.type, data);
  }
  if (header.kind === "ofs_delta") {
    const base = entryAt(table, header.baseOffset, n);
    if (base === -1) throw corrupt(`a delta names a base at ${header.baseOffset}, where no entry starts`);
    table.bases[n] = base;
  } else if (header.kind === "ref_delta") {
    const waiting = table.refDeltas.get(header.baseOid);
    if (waiting === undefined) table.refDeltas.set(header.baseOid, [n]);
    else waiting.push(n);
  }
  table.crcs[n] = crcOf(offset, end);
  return end;
}
