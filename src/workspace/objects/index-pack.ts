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
// (`startPackIndex`'s `advance`): each entry is inflated as its bytes come in, an entry the
// network cut fed to zlib a piece at a time (zlib keeps its state between pieces, so nothing is
// inflated twice), and only the rest, the checksum and the deltas wait for the end. What
// `advance` cannot do (an object too large to hold) or finds damaged is left to `finish`, which
// scans on from there as indexing at the end does, so the outcome and its errors are the same.

import { createHash } from "node:crypto";
import { type EntryHeader, parseEntryHeader } from "./entry-header.ts";
import type { GitObject } from "./git-object.ts";
import { openPieceInflater, type PieceInflater } from "./inflater.ts";
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
/**
 * How much more of the pack a scan waits for: the network hands it over some 10 KB at a time, and
 * each scan costs a few reads and calls beyond its entries' own work.
 */
const ADVANCE_STEP = 64 * 1024;

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
  advance(source: PackSource, available: number): number;
  /** Nothing more will arrive (the pack is in, or the fetch failed): lets go of the early scan's zlib handle. */
  endArrival(): void;
  /** The whole pack is in `source`: checks it, scans what is left and resolves the deltas. */
  finish(source: PackSource): Promise<IndexedPack>;
}

export function startPackIndex(options: Omit<IndexPackOptions, "source">): PackIndexing {
  const windowBytes = options.windowBytes ?? WINDOW;
  let scan: EntryScan | undefined;
  let stopped = false;
  let scannedTo = 0;
  return {
    advance(source, available) {
      if (stopped || available < scannedTo + ADVANCE_STEP) return scan?.scanned() ?? 0;
      scannedTo = available;
      try {
        if (scan === undefined) {
          const count = source.read(0, HEADER).readUInt32BE(8);
          // The pack's size is not known yet: its tables are sized once what is in could hold them.
          if (count > (available - HEADER) / MIN_ENTRY_BYTES) return 0;
          scan = createEntryScan(count);
        }
        stopped = !scan.arrived(createPackEntryReader(source, available, windowBytes), available);
      } catch {
        stopped = true; // damaged: `finish` scans the entry again and tells
      }
      if (stopped) scan?.close();
      return scan?.scanned() ?? 0;
    },
    endArrival() {
      stopped = true;
      scan?.close();
    },
    async finish(source) {
      scan?.close();
      const { count, checksum, dataEnd } = verifyPack(source, windowBytes);
      if (scan === undefined || scan.table.count !== count) scan = createEntryScan(count);
      const reader = createPackEntryReader(source, dataEnd, windowBytes);
      await scan.finish(reader, dataEnd);
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
  /** Scans the rest of a whole pack, up to `dataEnd`, or throws. */
  finish(reader: PackEntryReader, dataEnd: number): Promise<void>;
  /**
   * Scans what has arrived of a pack, its first `available` bytes. An entry cut short is fed to
   * zlib as far as it goes and taken up again with the next piece; answers false when the scan
   * cannot go on before the end (an object too large to hold, or no zlib handle of its own).
   */
  arrived(reader: PackEntryReader, available: number): boolean;
  /** How many entries are scanned. */
  scanned(): number;
  /** Lets go of the zlib handle the arriving entries used. */
  close(): void;
}

function createEntryScan(count: number): EntryScan {
  const table = createPackTable(count);
  let n = 0;
  let offset = HEADER;
  // The entry being inflated as it arrives: its header, and how far its data has been fed to zlib.
  let pending: { readonly header: EntryHeader; fedTo: number } | undefined;
  let pieces: PieceInflater | null | undefined;
  return {
    table,
    scanned: () => n,
    close: () => pieces?.close(),
    async finish(reader, dataEnd) {
      pending = undefined; // an entry half fed is inflated again, whole
      for (; n < table.count; n += 1) {
        if (offset >= dataEnd) throw corrupt(`it ends after ${n} of its ${table.count} entries`);
        const header = readHeader(reader, offset);
        const dataStart = offset + header.dataStart;
        if (header.kind === "whole" && header.size > STREAM_ABOVE) {
          const streamed = await reader.streamWhole(dataStart, header.type, header.size);
          table.oids.set(Buffer.from(streamed.oid, "hex"), n * 20);
          offset = recordEntry(table, reader, n, offset, header, undefined, streamed.compressed);
        } else {
          const { data, compressed } = reader.inflateAt(dataStart, header.size);
          offset = recordEntry(table, reader, n, offset, header, data, compressed);
        }
      }
      if (offset !== dataEnd) throw corrupt("it has bytes after its last entry");
      table.offsets[table.count] = offset;
    },
    arrived(reader, available) {
      for (; n < table.count; n += 1) {
        if (pending === undefined) {
          if (offset + MAX_ENTRY_HEADER > available) return true;
          const header = readHeader(reader, offset, true);
          if (header.kind === "whole" && header.size > STREAM_ABOVE) return false;
          pieces ??= openPieceInflater();
          if (pieces === null) return false;
          pieces.begin(header.size);
          pending = { header, fedTo: offset + header.dataStart };
        }
        if (pending.fedTo >= available) return true;
        const fed = pieces!.feed(reader.view(pending.fedTo, available - pending.fedTo));
        pending.fedTo = available;
        if (fed.kind === "more") return true;
        if (fed.kind === "invalid") throw corrupt(`cannot inflate the entry at ${offset} (${fed.message})`);
        const { header } = pending;
        pending = undefined;
        offset = recordEntry(table, reader, n, offset, header, fed.data, fed.consumed);
      }
      return true;
    },
  };
}

/**
 * The header of the entry at `offset`. While the pack arrives it is read alone (`alone`): reading
 * on from there, as the window does at the end, would reread the entry at each piece.
 */
function readHeader(reader: PackEntryReader, offset: number, alone = false): EntryHeader {
  const bytes = reader.view(offset, MAX_ENTRY_HEADER, alone ? MAX_ENTRY_HEADER : undefined);
  return parseEntryHeader(bytes, 0, offset, (what) => corrupt(what));
}

/**
 * Entry n at `offset`, inflated (`data`, absent for an object hashed as it streamed): its extent,
 * CRC and base, and its id if it is a whole object. Answers where the next entry starts.
 */
function recordEntry(
  table: PackTable,
  reader: PackEntryReader,
  n: number,
  offset: number,
  header: EntryHeader,
  data: Uint8Array | undefined,
  compressed: number,
): number {
  const end = offset + header.dataStart + compressed;
  table.offsets[n] = offset;
  table.sizes[n] = header.size;
  table.headerLengths[n] = header.dataStart;
  if (header.kind === "whole") {
    if (data !== undefined) recordObjectId(table, n, header.type, data);
    else table.kinds[n] = TYPE_CODES[header.type];
  } else if (header.kind === "ofs_delta") {
    const base = entryAt(table, header.baseOffset, n);
    if (base === -1) throw corrupt(`a delta names a base at ${header.baseOffset}, where no entry starts`);
    table.bases[n] = base;
  } else {
    const waiting = table.refDeltas.get(header.baseOid);
    if (waiting === undefined) table.refDeltas.set(header.baseOid, [n]);
    else waiting.push(n);
  }
  table.crcs[n] = reader.crcOf(offset, end);
  return end;
}
