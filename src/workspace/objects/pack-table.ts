// What the indexer knows about a pack's entries, one slot per entry in pack order, held in typed
// arrays rather than an object (and map entries) per entry: a 100,000-file tree is 200,000 entries,
// and an object each, with hex ids as strings and maps by offset and by id, cost more memory and
// garbage collection than indexing them did. An entry ends where the next one starts, so only
// offsets are kept; object ids are 20 raw bytes in one array.

import { type GitObjectType, objectHash } from "./git-object.ts";

/** In `kinds`, a delta whose object is not known yet. */
const UNRESOLVED = 0;

export interface PackTable {
  readonly count: number;
  /** Where each entry starts; entry n ends at `offsets[n + 1]` (the last at the end of the data). */
  readonly offsets: Float64Array;
  /** The inflated size each entry's header declares. */
  readonly sizes: Float64Array;
  /** Bytes of entry header before the compressed data (at most a few dozen). */
  readonly headerLengths: Uint8Array;
  /** The object's type code (1–4) once known; a delta's stays 0 until it is resolved. */
  readonly kinds: Uint8Array;
  /** For an OFS_DELTA, the entry number of its base; -1 otherwise. */
  readonly bases: Int32Array;
  /** CRC-32 of each entry's bytes, header included. */
  readonly crcs: Uint32Array;
  /** 20 bytes per entry: the object id, once known. */
  readonly oids: Uint8Array;
  /** REF_DELTA entries by the hex id of the base they name. */
  readonly refDeltas: Map<string, number[]>;
}

export function createPackTable(count: number): PackTable {
  return {
    count,
    offsets: new Float64Array(count + 1),
    sizes: new Float64Array(count),
    headerLengths: new Uint8Array(count),
    kinds: new Uint8Array(count),
    bases: new Int32Array(count).fill(-1),
    crcs: new Uint32Array(count),
    oids: new Uint8Array(count * 20),
    refDeltas: new Map(),
  };
}

export const TYPE_CODES: Readonly<Record<GitObjectType, number>> = { commit: 1, tree: 2, blob: 3, tag: 4 };
export const TYPE_NAMES: readonly GitObjectType[] = ["commit", "commit", "tree", "blob", "tag"];

/** Entry n is this object: its id (SHA-1 over `<type> <length>\0<bytes>`) and its type. */
export function recordObjectId(table: PackTable, n: number, type: GitObjectType, bytes: Uint8Array): void {
  table.oids.set(objectHash(type, bytes.byteLength).update(bytes).digest(), n * 20);
  table.kinds[n] = TYPE_CODES[type];
}

export const isResolved = (table: PackTable, entry: number): boolean => table.kinds[entry] !== UNRESOLVED;

/** The entry that starts at `offset`, or -1: a binary search of the offsets (they only grow). */
export function entryAt(table: PackTable, offset: number, below: number): number {
  let low = 0;
  let high = below - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = table.offsets[middle]!;
    if (at === offset) return middle;
    if (at < offset) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

export const oidHex = (table: PackTable, entry: number): string =>
  Buffer.from(table.oids.buffer, table.oids.byteOffset + entry * 20, 20).toString("hex");

/**
 * The OFS_DELTA children of every entry, as one list: the children of entry n are
 * `children[first[n]]` up to `children[first[n + 1]]`, in pack order.
 */
export function ofsChildren(table: PackTable): { readonly first: Int32Array; readonly children: Int32Array } {
  const first = new Int32Array(table.count + 1);
  for (let entry = 0; entry < table.count; entry += 1) {
    const base = table.bases[entry]!;
    if (base >= 0) first[base + 1]! += 1;
  }
  for (let entry = 0; entry < table.count; entry += 1) first[entry + 1]! += first[entry]!;
  const children = new Int32Array(first[table.count]!);
  const next = first.slice(0, table.count);
  for (let entry = 0; entry < table.count; entry += 1) {
    const base = table.bases[entry]!;
    if (base >= 0) children[next[base]!++] = entry;
  }
  return { first, children };
}
