// Looks object ids up in a version-2 pack index (`.idx`, gitformat-pack "Version 2 pack-*.idx"):
// a 256-entry fan-out table, the sorted ids, their CRCs, then 31-bit offsets that may point into a
// table of 64-bit offsets. Both native git and isomorphic-git write this format.

import { CorruptObjectStoreError } from "./git-object.ts";

const MAGIC = 0xff744f63;
const HEADER = 8;
const FANOUT = 256 * 4;
const ID = 20;

export interface PackIndex {
  readonly objectCount: number;
  /** The pack's trailing checksum as the index recorded it (hex). */
  readonly packChecksum: string;
  /** The pack offset of an object, or undefined when this pack does not hold it. */
  offsetOf(oid: string): number | undefined;
  /**
   * Where the entry at `offset` ends: the next entry's offset, or `packDataEnd`. Entries are
   * stored back to back, so this bounds how many bytes one read needs.
   */
  entryEnd(offset: number, packDataEnd: number): number;
}

/** Returns undefined for an index this reader does not know (version 1), so callers can fall back. */
export function parsePackIndex(data: Buffer): PackIndex | undefined {
  if (data.byteLength < HEADER + FANOUT || data.readUInt32BE(0) !== MAGIC) return undefined;
  if (data.readUInt32BE(4) !== 2) return undefined;
  const count = data.readUInt32BE(HEADER + 255 * 4);
  const idsAt = HEADER + FANOUT;
  const offsetsAt = idsAt + count * ID + count * 4;
  const largeAt = offsetsAt + count * 4;
  if (data.byteLength < largeAt + 2 * ID) {
    throw new CorruptObjectStoreError("pack index is truncated");
  }
  const largeCount = (data.byteLength - largeAt - 2 * ID) / 8;
  const packChecksum = data.subarray(data.byteLength - 2 * ID, data.byteLength - ID).toString("hex");

  const offsetAt = (position: number): number => {
    const small = data.readUInt32BE(offsetsAt + position * 4);
    if ((small & 0x80000000) === 0) return small;
    const large = small & 0x7fffffff;
    if (large >= largeCount) throw new CorruptObjectStoreError("pack index offset is out of range");
    return Number(data.readBigUInt64BE(largeAt + large * 8));
  };

  let sortedOffsets: Float64Array | undefined;
  const sorted = (): Float64Array => {
    if (sortedOffsets === undefined) {
      sortedOffsets = new Float64Array(count);
      for (let position = 0; position < count; position += 1) sortedOffsets[position] = offsetAt(position);
      sortedOffsets.sort();
    }
    return sortedOffsets;
  };

  return {
    objectCount: count,
    packChecksum,
    offsetOf(oid) {
      // The id as five 32-bit words, compared word by word in JavaScript: a Buffer per lookup and
      // a native compare per probe cost more than the search itself on a pack of a million ids.
      if (oid.length !== 2 * ID) return undefined;
      const words = idWords(oid);
      if (words === undefined) return undefined;
      const first = words[0]! >>> 24;
      let low = first === 0 ? 0 : data.readUInt32BE(HEADER + (first - 1) * 4);
      let high = data.readUInt32BE(HEADER + first * 4);
      while (low < high) {
        const middle = (low + high) >>> 1;
        const order = compareId(words, data, idsAt + middle * ID);
        if (order === 0) return offsetAt(middle);
        if (order < 0) high = middle;
        else low = middle + 1;
      }
      return undefined;
    },
    entryEnd(offset, packDataEnd) {
      const offsets = sorted();
      let low = 0;
      let high = offsets.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (offsets[middle]! <= offset) low = middle + 1;
        else high = middle;
      }
      return low < offsets.length ? offsets[low]! : packDataEnd;
    },
  };
}

/** Each ASCII code's hex digit value, or -1 when the character is not a hex digit. */
const HEX_DIGIT = new Int8Array(128).fill(-1);
for (let digit = 0; digit < 16; digit += 1) {
  const lower = digit.toString(16);
  HEX_DIGIT[lower.charCodeAt(0)] = digit;
  HEX_DIGIT[lower.toUpperCase().charCodeAt(0)] = digit;
}

/**
 * The id's five big-endian words, or undefined when it is not 40 hex digits. Read digit by digit
 * into one reused array: a regular expression, five slices and five parseInt calls per lookup
 * were a tenth of a merge-base walk on rails (bench/README.md, issue 43). Lookups are synchronous,
 * so one array serves every caller.
 */
const ID_WORDS = new Uint32Array(5);
function idWords(oid: string): Uint32Array | undefined {
  for (let word = 0; word < 5; word += 1) {
    let value = 0;
    for (let index = word * 8; index < word * 8 + 8; index += 1) {
      const code = oid.charCodeAt(index);
      const digit = code < 128 ? HEX_DIGIT[code]! : -1;
      if (digit < 0) return undefined;
      value = value * 16 + digit;
    }
    ID_WORDS[word] = value;
  }
  return ID_WORDS;
}

/** Orders an id (as words) against the 20 bytes at `at`: negative, zero or positive. */
function compareId(words: Uint32Array, data: Buffer, at: number): number {
  for (let word = 0; word < 5; word += 1) {
    const stored = data.readUInt32BE(at + word * 4);
    if (words[word] !== stored) return words[word]! < stored ? -1 : 1;
  }
  return 0;
}
