// Indexes a pack that has just been received, the job of `git index-pack`: walks its entries in
// order, inflating each with node:zlib (which reports how many compressed bytes it used, so the
// next entry's offset is known), resolves every delta against its base (in this pack by offset or
// id, or, for a thin pack, an object the store already holds), and hashes each object with
// node:crypto. Memory is the pack itself plus a byte-bounded cache of resolved bases, where
// isomorphic-git's pure-JS indexer peaked at about six times the pack (bench/README.md).

import { createHash } from "node:crypto";
import { crc32, inflateSync } from "node:zlib";
import { type ByteBudgetCache, createByteBudgetCache } from "./byte-budget-cache.ts";
import { applyDelta } from "./delta.ts";
import { type EntryHeader, parseEntryHeader } from "./entry-header.ts";
import { CorruptObjectStoreError, type GitObject, gitObjectId } from "./git-object.ts";
import { type IndexedObject, writePackIndex } from "./pack-index-writer.ts";

export interface IndexPackOptions {
  /** The whole pack: header, entries, trailing SHA-1. */
  readonly pack: Buffer;
  /** An object outside this pack (a thin pack's delta base), or undefined when the store lacks it. */
  readonly readExternal: (oid: string) => Promise<GitObject | undefined>;
  readonly cacheBytes?: number;
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

interface Entry {
  readonly offset: number;
  readonly header: EntryHeader;
  crc: number;
  oid?: string;
}

function corrupt(what: string): CorruptObjectStoreError {
  return new CorruptObjectStoreError(`corrupt pack: ${what}`);
}

export async function indexPack(options: IndexPackOptions): Promise<IndexedPack> {
  const { pack } = options;
  if (pack.byteLength < HEADER + TRAILER || pack.toString("latin1", 0, 4) !== "PACK") {
    throw corrupt("not a pack file");
  }
  const version = pack.readUInt32BE(4);
  if (version !== 2 && version !== 3) throw corrupt(`unsupported version ${version}`);
  const count = pack.readUInt32BE(8);
  const dataEnd = pack.byteLength - TRAILER;
  const checksum = pack.subarray(dataEnd);
  if (!createHash("sha1").update(pack.subarray(0, dataEnd)).digest().equals(checksum)) {
    throw corrupt("its checksum does not match its contents");
  }

  // node:zlib stops at the end of the entry's zlib stream and reports how much input it used.
  const inflateEntry = (header: EntryHeader): { data: Buffer; compressed: number } => {
    let result: { buffer: Buffer; engine: { bytesWritten: number } };
    try {
      result = inflateSync(pack.subarray(header.dataStart, dataEnd), {
        info: true,
        chunkSize: Math.max(64, Math.min(header.size + 1, 1 << 22)),
        maxOutputLength: Math.max(1, header.size + 1),
      }) as unknown as typeof result;
    } catch (error) {
      throw corrupt(`cannot inflate the entry at ${header.dataStart} (${(error as Error).message})`);
    }
    if (result.buffer.byteLength !== header.size) {
      throw corrupt(
        `an entry inflates to ${result.buffer.byteLength} bytes, not the declared ${header.size}`,
      );
    }
    return { data: result.buffer, compressed: result.engine.bytesWritten };
  };

  // Pass 1: every entry's extent and CRC, and the id of every whole object.
  const entries: Entry[] = [];
  const byOffset = new Map<number, Entry>();
  const offsetOfOid = new Map<string, number>();
  const cache: ByteBudgetCache<GitObject> = createByteBudgetCache(options.cacheBytes ?? 32 * 1024 * 1024);
  let offset = HEADER;
  for (let n = 0; n < count; n += 1) {
    if (offset >= dataEnd) throw corrupt(`it ends after ${n} of its ${count} entries`);
    const header = parseEntryHeader(pack, offset, offset, (what) => corrupt(what));
    const { data, compressed } = inflateEntry(header);
    const end = header.dataStart + compressed;
    const entry: Entry = { offset, header, crc: crc32(pack.subarray(offset, end)) };
    if (header.kind === "whole") {
      entry.oid = gitObjectId(header.type, data);
      offsetOfOid.set(entry.oid, offset);
      cache.set(String(offset), { type: header.type, bytes: data }, data.byteLength);
    }
    entries.push(entry);
    byOffset.set(offset, entry);
    offset = end;
  }
  if (offset !== dataEnd) throw corrupt("it has bytes after its last entry");

  // The object at `start`, resolving its delta chain; undefined while a REF_DELTA base has no id
  // yet (a delta later in the pack) and is not in the store either.
  const resolve = async (start: number): Promise<GitObject | undefined> => {
    const chain: { key: string; delta: Buffer }[] = [];
    let at = start;
    let base: GitObject | undefined;
    while (base === undefined) {
      const key = String(at);
      base = cache.get(key);
      if (base !== undefined) break;
      const entry = byOffset.get(at);
      if (entry === undefined) throw corrupt(`a delta names a base at ${at}, where no entry starts`);
      const { data } = inflateEntry(entry.header);
      const header = entry.header;
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
      const local = offsetOfOid.get(header.baseOid);
      if (local !== undefined) {
        at = local;
        continue;
      }
      // Not (yet) known in this pack: a thin pack's base in the store, or a later entry's object.
      base = await options.readExternal(header.baseOid);
      if (base === undefined) return undefined;
    }
    for (let step = chain.length - 1; step >= 0; step -= 1) {
      const { key, delta } = chain[step]!;
      base = { type: base.type, bytes: applyDelta(base.bytes, delta) };
      cache.set(key, base, base.bytes.byteLength);
    }
    return base;
  };

  // Pass 2: the deltas, in pack order; a base that is itself a later REF_DELTA waits a round.
  let unresolved = entries.filter((entry) => entry.oid === undefined);
  while (unresolved.length > 0) {
    const waiting: Entry[] = [];
    for (const entry of unresolved) {
      const object = await resolve(entry.offset);
      if (object === undefined) {
        waiting.push(entry);
        continue;
      }
      entry.oid = gitObjectId(object.type, object.bytes);
      offsetOfOid.set(entry.oid, entry.offset);
    }
    if (waiting.length === unresolved.length) {
      throw corrupt(`${waiting.length} deltas name bases that are neither in the pack nor in the store`);
    }
    unresolved = waiting;
  }

  const objects: IndexedObject[] = entries.map((entry) => ({
    oid: entry.oid!,
    offset: entry.offset,
    crc: entry.crc,
  }));
  return { checksum: checksum.toString("hex"), objectCount: count, index: writePackIndex(objects, checksum) };
}
