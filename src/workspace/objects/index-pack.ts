// Indexes a pack that has just been received, the job of `git index-pack`: walks its entries in
// order, inflating each with node:zlib (which reports how many compressed bytes it used, so the
// next entry's offset is known) and hashing every whole object, then resolves the deltas the way
// git does: from each base down through the deltas made on it, depth first, so that only the
// chain being resolved is in memory (a thin pack's bases come from the store). The pack is read
// through a moving window and the entries are kept in typed arrays (pack-table.ts), so memory is
// a few megabytes of pack, the longest delta chain and a few dozen bytes per entry, whatever the
// pack's size; isomorphic-git's pure-JS indexer held the whole pack and peaked near six times it.

import { createHash } from "node:crypto";
import { applyDelta } from "./delta.ts";
import { parseEntryHeader } from "./entry-header.ts";
import type { GitObject, GitObjectType } from "./git-object.ts";
import {
  corruptPack,
  createPackEntryReader,
  type PackEntryReader,
  STREAM_ABOVE,
} from "./pack-entry-reader.ts";
import { writeColumnsIndex } from "./pack-index-writer.ts";
import type { PackSource } from "./pack-source.ts";
import { createPackTable, entryAt, isResolved, ofsChildren, oidHex, type PackTable } from "./pack-table.ts";

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
const MAX_CHAIN = 10_000;
const WINDOW = 8 * 1024 * 1024;
/** More than any entry header needs (type and size varint, then a 20-byte id or an offset). */
const MAX_ENTRY_HEADER = 64;
const TYPE_CODES: Readonly<Record<GitObjectType, number>> = { commit: 1, tree: 2, blob: 3, tag: 4 };
const TYPE_NAMES: readonly GitObjectType[] = ["commit", "commit", "tree", "blob", "tag"];

const corrupt = corruptPack;

export async function indexPack(options: IndexPackOptions): Promise<IndexedPack> {
  const { source } = options;
  const windowBytes = options.windowBytes ?? WINDOW;
  const { count, checksum, dataEnd } = verifyPack(source, windowBytes);
  const reader = createPackEntryReader(source, dataEnd, windowBytes);
  const table = createPackTable(count);
  await scanEntries(table, reader, dataEnd);
  await resolveDeltas(table, reader, options.readExternal);
  return {
    checksum: checksum.toString("hex"),
    objectCount: count,
    index: writeColumnsIndex(table, checksum),
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
  const checksum = Buffer.from(source.read(dataEnd, TRAILER));
  const hash = createHash("sha1");
  for (let at = 0; at < dataEnd; at += windowBytes) {
    hash.update(source.read(at, Math.min(windowBytes, dataEnd - at)));
  }
  if (!hash.digest().equals(checksum)) throw corrupt("its checksum does not match its contents");
  return { count, checksum, dataEnd };
}

/** Pass 1: every entry's extent, CRC and base, and the id of every whole object. */
async function scanEntries(table: PackTable, reader: PackEntryReader, dataEnd: number): Promise<void> {
  const { view, inflateAt, streamWhole, crcOf } = reader;
  let offset = HEADER;
  for (let n = 0; n < table.count; n += 1) {
    if (offset >= dataEnd) throw corrupt(`it ends after ${n} of its ${table.count} entries`);
    const header = parseEntryHeader(view(offset, MAX_ENTRY_HEADER), 0, offset, (what) => corrupt(what));
    const dataStart = offset + header.dataStart;
    table.offsets[n] = offset;
    table.sizes[n] = header.size;
    table.headerLengths[n] = header.dataStart;
    let end: number;
    if (header.kind === "whole" && header.size > STREAM_ABOVE) {
      const streamed = await streamWhole(dataStart, header.type, header.size);
      end = dataStart + streamed.compressed;
      table.oids.set(Buffer.from(streamed.oid, "hex"), n * 20);
    } else {
      const { data, compressed } = inflateAt(dataStart, header.size);
      end = dataStart + compressed;
      if (header.kind === "whole") objectId(header.type, data, table.oids, n);
    }
    if (header.kind === "whole") {
      table.kinds[n] = TYPE_CODES[header.type];
    } else if (header.kind === "ofs_delta") {
      const base = entryAt(table, header.baseOffset, n);
      if (base === -1) throw corrupt(`a delta names a base at ${header.baseOffset}, where no entry starts`);
      table.bases[n] = base;
    } else {
      const waiting = table.refDeltas.get(header.baseOid);
      if (waiting === undefined) table.refDeltas.set(header.baseOid, [n]);
      else waiting.push(n);
    }
    table.crcs[n] = crcOf(offset, end);
    offset = end;
  }
  if (offset !== dataEnd) throw corrupt("it has bytes after its last entry");
  table.offsets[table.count] = dataEnd;
}

/** SHA-1 over `<type> <length>\0<bytes>`, written as entry n's id. */
function objectId(type: GitObjectType, bytes: Uint8Array, oids: Uint8Array, n: number): void {
  const digest = createHash("sha1").update(`${type} ${bytes.byteLength}\0`).update(bytes).digest();
  oids.set(digest, n * 20);
}

/**
 * Pass 2: every delta, reached from its base. Each entry that deltas are made on is inflated once
 * more and its deltas applied depth first (a REF_DELTA joins the walk when the object it names gets
 * its id); what is left names bases outside the pack, which a thin pack takes from the store.
 */
async function resolveDeltas(
  table: PackTable,
  reader: PackEntryReader,
  readExternal: IndexPackOptions["readExternal"],
): Promise<void> {
  const ofs = ofsChildren(table);
  const hasChildren = (entry: number): boolean =>
    ofs.first[entry + 1]! > ofs.first[entry]! ||
    (table.refDeltas.size > 0 && table.refDeltas.has(oidHex(table, entry)));
  let unresolved = 0;
  for (let entry = 0; entry < table.count; entry += 1) {
    if (!isResolved(table, entry)) unresolved += 1;
  }
  if (unresolved === 0) return;
  const inflate = (entry: number): Buffer => {
    const dataStart = table.offsets[entry]! + table.headerLengths[entry]!;
    return reader.inflateAt(dataStart, table.sizes[entry]!, table.offsets[entry + 1]! - dataStart).data;
  };
  const walk = (root: GitObject, from: Root): void => {
    unresolved -= walkDeltas(table, ofs, inflate, root, from);
  };
  for (let entry = 0; entry < table.count && unresolved > 0; entry += 1) {
    if (table.bases[entry] !== -1 || !isResolved(table, entry) || !hasChildren(entry)) continue;
    walk({ type: TYPE_NAMES[table.kinds[entry]!]!, bytes: inflate(entry) }, { entry });
  }
  // What is left waits on objects outside the pack (a thin pack's bases), or on nothing at all.
  for (const baseOid of [...table.refDeltas.keys()]) {
    const waiting = table.refDeltas.get(baseOid);
    if (waiting === undefined || waiting.every((entry) => isResolved(table, entry))) continue;
    const base = await readExternal(baseOid);
    if (base !== undefined) walk(base, { oid: baseOid });
  }
  if (unresolved > 0) {
    throw corrupt(`${unresolved} deltas name bases that are neither in the pack nor in the store`);
  }
}

/** Where a walk starts: an entry of the pack, or an object of the store named by its id. */
type Root =
  | { readonly entry: number; readonly oid?: undefined }
  | { readonly entry?: undefined; readonly oid: string };

interface Frame {
  readonly object: GitObject;
  /** The entry's OFS_DELTA children, then its REF_DELTA ones; `next` is where the walk is. */
  readonly children: ArrayLike<number>;
  next: number;
}

/**
 * Resolves every delta below `root` (an entry of the pack, or an object of the store),
 * depth first; only the chain from the root to the delta being applied is held. Answers how many
 * deltas it resolved.
 */
function walkDeltas(
  table: PackTable,
  ofs: ReturnType<typeof ofsChildren>,
  inflate: (entry: number) => Buffer,
  root: GitObject,
  from: Root,
): number {
  const childrenOf = (entry: number | undefined, oid: string | undefined): ArrayLike<number> => {
    const byOffset =
      entry === undefined ? [] : ofs.children.subarray(ofs.first[entry]!, ofs.first[entry + 1]!);
    const byId = table.refDeltas.size === 0 ? undefined : table.refDeltas.get(oid ?? oidHex(table, entry!));
    if (byId === undefined) return byOffset;
    const pending = byId.filter((child) => !isResolved(table, child));
    return byOffset.length === 0 ? pending : [...byOffset, ...pending];
  };
  const stack: Frame[] = [{ object: root, children: childrenOf(from.entry, from.oid), next: 0 }];
  let resolved = 0;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next >= frame.children.length) {
      stack.pop();
      continue;
    }
    const child = frame.children[frame.next++]!;
    if (isResolved(table, child)) continue; // a REF_DELTA named twice
    const bytes = applyDelta(frame.object.bytes, inflate(child));
    const { type } = frame.object;
    objectId(type, bytes, table.oids, child);
    table.kinds[child] = TYPE_CODES[type];
    resolved += 1;
    const children = childrenOf(child, undefined);
    if (children.length === 0) continue;
    if (stack.length >= MAX_CHAIN) throw corrupt(`a delta chain is longer than ${MAX_CHAIN}`);
    stack.push({ object: { type, bytes }, children, next: 0 });
  }
  return resolved;
}
