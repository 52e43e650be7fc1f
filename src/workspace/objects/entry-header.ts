// The header of one pack entry (gitformat-pack, "Object entries"): the type and inflated size,
// then for a delta its base, either as a distance back to an earlier entry (OFS_DELTA) or as an
// object id (REF_DELTA). Shared by the pack reader and the pack indexer, which must agree on it.

import type { GitObjectType } from "./git-object.ts";

const TYPES: Readonly<Record<number, GitObjectType>> = { 1: "commit", 2: "tree", 3: "blob", 4: "tag" };
const OFS_DELTA = 6;
const REF_DELTA = 7;

interface Sized {
  /** Inflated size the header declares. */
  readonly size: number;
  /** Where the compressed data starts, as an index into the bytes given. */
  readonly dataStart: number;
}

export type EntryHeader =
  | (Sized & { readonly kind: "whole"; readonly type: GitObjectType })
  | (Sized & { readonly kind: "ofs_delta"; readonly baseOffset: number })
  | (Sized & { readonly kind: "ref_delta"; readonly baseOid: string });

/**
 * Parses the entry that starts at `bytes[start]`, whose offset in its pack is `packOffset`.
 * `fail(what)` builds the error for a damaged header.
 */
export function parseEntryHeader(
  bytes: Uint8Array,
  start: number,
  packOffset: number,
  fail: (what: string) => Error,
): EntryHeader {
  let position = start;
  const next = (): number => {
    const byte = bytes[position];
    if (byte === undefined) throw fail(`entry at ${packOffset} is truncated`);
    position += 1;
    return byte;
  };

  // Type and inflated size: 3 type bits and 4 size bits, then 7 size bits a byte (little-endian).
  let byte = next();
  const typeCode = (byte >> 4) & 7;
  let size = byte & 0x0f;
  let shift = 4;
  while ((byte & 0x80) !== 0) {
    byte = next();
    size += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (shift > 53) throw fail(`entry at ${packOffset} has an oversized header`);
  }

  if (typeCode === OFS_DELTA) {
    // The base's distance back, in git's "offset encoding": each continuation adds one before
    // shifting, so that every distance has exactly one spelling.
    byte = next();
    let distance = byte & 0x7f;
    while ((byte & 0x80) !== 0) {
      byte = next();
      distance = (distance + 1) * 128 + (byte & 0x7f);
    }
    if (distance <= 0 || distance > packOffset) throw fail(`entry at ${packOffset} has a bad base offset`);
    return { kind: "ofs_delta", baseOffset: packOffset - distance, size, dataStart: position };
  }
  if (typeCode === REF_DELTA) {
    if (position + 20 > bytes.byteLength) throw fail(`entry at ${packOffset} is truncated`);
    const baseOid = Buffer.from(bytes.buffer, bytes.byteOffset + position, 20).toString("hex");
    return { kind: "ref_delta", baseOid, size, dataStart: position + 20 };
  }
  const type = TYPES[typeCode];
  if (type === undefined) throw fail(`entry at ${packOffset} has unknown type ${typeCode}`);
  return { kind: "whole", type, size, dataStart: position };
}
