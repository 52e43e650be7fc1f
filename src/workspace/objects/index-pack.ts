// Indexes a pack that has just been received, the job of `git index-pack`: walks its entries in
// order, inflating each with node:zlib (which reports how many compressed bytes it used, so the
// next entry's offset is known), resolves every delta against its base (in this pack by offset or
// id, or, for a thin pack, an object the store already holds), and hashes each object with
// node:crypto. The pack is read through a moving window, so memory is a few megabytes of pack,
// the largest single entry, and a byte-bounded cache of resolved bases, whatever the pack's size;
// isomorphic-git's pure-JS indexer held the whole pack and peaked near six times its size.

import { createHash } from "node:crypto";
import { type ByteBudgetCache, createByteBudgetCache } from "./byte-budget-cache.ts";
import { applyDelta } from "./delta.ts";
import { type EntryHeader, parseEntryHeader } from "./entry-header.ts";
import { type GitObject, gitObjectId } from "./git-object.ts";
import {
  corruptPack,
  createPackEntryReader,
  type PackEntryReader,
  STREAM_ABOVE,
} from "./pack-entry-reader.ts";
import { type IndexedObject, writePackIndex } from "./pack-index-writer.ts";
import type { PackSource } from "./pack-source.ts";

export interface IndexPackOptions {
  readonly source: PackSource;
  /** An object outside this pack (a thin pack's delta base), or undefined when the store lacks it. */
  readonly readExternal: (oid: string) => Promise<GitObject | undefined>;
  readonly cacheBytes?: number;
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
const MAX_CHAIN = 10_000;
const WINDOW = 8 * 1024 * 1024;
/** More than any entry header needs (type and size varint, then a 20-byte id or an offset). */
const MAX_ENTRY_HEADER = 64;

interface Entry {
  readonly offset: number;
  readonly header: EntryHeader;
  /** Absolute offsets of the compressed data and of the entry's end. */
  readonly dataStart: number;
  readonly end: number;
  readonly crc: number;
  oid?: string;
}

const corrupt = corruptPack;

export async function indexPack(options: IndexPackOptions): Promise<IndexedPack> {
  const { source } = options;
  const windowBytes = options.windowBytes ?? WINDOW;
  const { count, checksum, dataEnd } = verifyPack(source, windowBytes);
  const reader = createPackEntryReader(source, dataEnd, windowBytes);
  const cache: ByteBudgetCache<GitObject> = createByteBudgetCache(options.cacheBytes ?? 32 * 1024 * 1024);
  const scanned = await scanEntries(reader, cache, count, dataEnd);
  await resolveDeltas(scanned, createResolver(scanned, reader, cache, options.readExternal));
  const objects: IndexedObject[] = scanned.entries.map((entry) => ({
    oid: entry.oid!,
    offset: entry.offset,
    crc: entry.crc,
  }));
  return { checksum: checksum.toString("hex"), objectCount: count, index: writePackIndex(objects, checksum) };
}

/** The pack's header and trailing checksum, checked over the whole pack before anything else. */
function verifyPack(source: PackSource, windowBytes: number) {
  const dataEnd = source.size - TRAILER;
  const start = Buffer.from(source.read(0, HEADER)); // copies: the next read reuses the bytes
  if (dataEnd < HEADER || start.toString("latin1", 0, 4) !== "PACK") throw corrupt("not a pack file");
  const version = start.readUInt32BE(4);
  if (version !== 2 && version !== 3) throw corrupt(`unsupported version ${version}`);
  const count = start.readUInt32BE(8);
  const checksum = Buffer.from(source.read(dataEnd, TRAILER));
  const hash = createHash("sha1");
  for (let at = 0; at < dataEnd; at += windowBytes) {
    hash.update(source.read(at, Math.min(windowBytes, dataEnd - at)));
  }
  if (!hash.digest().equals(checksum)) throw corrupt("its checksum does not match its contents");
  return { count, checksum, dataEnd };
}

interface ScannedPack {
  readonly entries: Entry[];
  readonly byOffset: Map<number, Entry>;
  readonly offsetOfOid: Map<string, number>;
}

/** Pass 1: every entry's extent and CRC, and the id of every whole object. */
async function scanEntries(
  reader: PackEntryReader,
  cache: ByteBudgetCache<GitObject>,
  count: number,
  dataEnd: number,
): Promise<ScannedPack> {
  const { view, inflateAt, streamWhole, crcOf } = reader;
  const scanned: ScannedPack = { entries: [], byOffset: new Map(), offsetOfOid: new Map() };
  let offset = HEADER;
  for (let n = 0; n < count; n += 1) {
    if (offset >= dataEnd) throw corrupt(`it ends after ${n} of its ${count} entries`);
    const header = parseEntryHeader(view(offset, MAX_ENTRY_HEADER), 0, offset, (what) => corrupt(what));
    const dataStart = offset + header.dataStart;
    let end: number;
    let oid: string | undefined;
    if (header.kind === "whole" && header.size > STREAM_ABOVE) {
      const streamed = await streamWhole(dataStart, header.type, header.size);
      end = dataStart + streamed.compressed;
      oid = streamed.oid;
    } else {
      const { data, compressed } = inflateAt(dataStart, header.size);
      end = dataStart + compressed;
      if (header.kind === "whole") {
        oid = gitObjectId(header.type, data);
        cache.set(String(offset), { type: header.type, bytes: data }, data.byteLength);
      }
    }
    const entry: Entry = { offset, header, dataStart, end, crc: crcOf(offset, end) };
    if (oid !== undefined) {
      entry.oid = oid;
      scanned.offsetOfOid.set(oid, offset);
    }
    scanned.entries.push(entry);
    scanned.byOffset.set(offset, entry);
    offset = end;
  }
  if (offset !== dataEnd) throw corrupt("it has bytes after its last entry");
  return scanned;
}

type Resolve = (from: number) => Promise<GitObject | undefined>;

/**
 * The object at an offset, resolving its delta chain; undefined while a REF_DELTA base has no id
 * yet (a delta later in the pack) and is not in the store either.
 */
function createResolver(
  scanned: ScannedPack,
  reader: PackEntryReader,
  cache: ByteBudgetCache<GitObject>,
  readExternal: IndexPackOptions["readExternal"],
): Resolve {
  return async (from) => {
    const chain: { key: string; delta: Buffer }[] = [];
    let at = from;
    let base: GitObject | undefined;
    while (base === undefined) {
      const key = String(at);
      base = cache.get(key);
      if (base !== undefined) break;
      const entry = scanned.byOffset.get(at);
      if (entry === undefined) throw corrupt(`a delta names a base at ${at}, where no entry starts`);
      const { header } = entry;
      const { data } = reader.inflateAt(entry.dataStart, header.size, entry.end - entry.dataStart);
      if (header.kind === "whole") {
        base = { type: header.type, bytes: data };
        cache.set(key, base, data.byteLength);
        break;
      }
      chain.push({ key, delta: data });
      if (chain.length > MAX_CHAIN) throw corrupt(`a delta chain is longer than ${MAX_CHAIN}`);
      if (header.kind === "ofs_delta") {
        at = header.baseOffset;
        continue;
      }
      const local = scanned.offsetOfOid.get(header.baseOid);
      if (local !== undefined) {
        at = local;
        continue;
      }
      // Not (yet) known in this pack: a thin pack's base in the store, or a later entry's object.
      base = await readExternal(header.baseOid);
      if (base === undefined) return undefined;
    }
    for (let step = chain.length - 1; step >= 0; step -= 1) {
      const { key, delta } = chain[step]!;
      base = { type: base.type, bytes: applyDelta(base.bytes, delta) };
      cache.set(key, base, base.bytes.byteLength);
    }
    return base;
  };
}

/** Pass 2: the deltas, in pack order; a base that is itself a later REF_DELTA waits a round. */
async function resolveDeltas(scanned: ScannedPack, resolve: Resolve): Promise<void> {
  let unresolved = scanned.entries.filter((entry) => entry.oid === undefined);
  while (unresolved.length > 0) {
    const waiting: Entry[] = [];
    for (const entry of unresolved) {
      const object = await resolve(entry.offset);
      if (object === undefined) {
        waiting.push(entry);
        continue;
      }
      entry.oid = gitObjectId(object.type, object.bytes);
      scanned.offsetOfOid.set(entry.oid, entry.offset);
    }
    if (waiting.length === unresolved.length) {
      throw corrupt(`${waiting.length} deltas name bases that are neither in the pack nor in the store`);
    }
    unresolved = waiting;
  }
}
