// Writes a version-2 pack index (gitformat-pack, "Version 2 pack-*.idx"), the same bytes
// `git index-pack` writes for the same pack: the fan-out table, the sorted object ids, their
// CRC-32s, 31-bit offsets (with a table of 64-bit ones past 2 GiB), the pack's checksum, and the
// index's own SHA-1.

import { createHash } from "node:crypto";

export interface IndexedObject {
  /** 40 hex digits. */
  readonly oid: string;
  readonly offset: number;
  /** CRC-32 of the entry's bytes in the pack, header included. */
  readonly crc: number;
}

/** The same objects as columns: ids as 20 raw bytes each (what the indexer holds). */
export interface IndexedColumns {
  readonly count: number;
  readonly oids: Uint8Array;
  readonly offsets: ArrayLike<number>;
  readonly crcs: ArrayLike<number>;
}

const LARGE_OFFSET = 0x80000000;

export function writePackIndex(objects: readonly IndexedObject[], packChecksum: Buffer): Buffer {
  const oids = Buffer.alloc(objects.length * 20);
  for (const [n, object] of objects.entries()) oids.write(object.oid, n * 20, "hex");
  return writeColumnsIndex(
    {
      count: objects.length,
      oids,
      offsets: objects.map((object) => object.offset),
      crcs: objects.map((object) => object.crc),
    },
    packChecksum,
  );
}

export function writeColumnsIndex(columns: IndexedColumns, packChecksum: Buffer): Buffer {
  const { count, oids, offsets, crcs } = columns;
  const sorted = sortedById(oids, count);
  let largeCount = 0;
  for (let n = 0; n < count; n += 1) if (offsets[n]! >= LARGE_OFFSET) largeCount += 1;
  const size = 8 + 256 * 4 + count * (20 + 4 + 4) + largeCount * 8 + 40;
  const out = Buffer.alloc(size);
  out.writeUInt32BE(0xff744f63, 0);
  out.writeUInt32BE(2, 4);

  const fanout = new Uint32Array(256);
  for (let n = 0; n < count; n += 1) fanout[oids[n * 20]!]! += 1;
  let running = 0;
  for (let first = 0; first < 256; first += 1) {
    running += fanout[first]!;
    out.writeUInt32BE(running, 8 + first * 4);
  }

  const idsAt = 8 + 256 * 4;
  const crcsAt = idsAt + count * 20;
  const offsetsAt = crcsAt + count * 4;
  const largeAt = offsetsAt + count * 4;
  let nextLarge = 0;
  for (let position = 0; position < count; position += 1) {
    const entry = sorted[position]!;
    out.set(oids.subarray(entry * 20, entry * 20 + 20), idsAt + position * 20);
    out.writeUInt32BE(crcs[entry]! >>> 0, crcsAt + position * 4);
    const offset = offsets[entry]!;
    if (offset < LARGE_OFFSET) {
      out.writeUInt32BE(offset, offsetsAt + position * 4);
    } else {
      out.writeUInt32BE((LARGE_OFFSET | nextLarge) >>> 0, offsetsAt + position * 4);
      out.writeBigUInt64BE(BigInt(offset), largeAt + nextLarge * 8);
      nextLarge += 1;
    }
  }
  const trailerAt = largeAt + largeCount * 8;
  packChecksum.copy(out, trailerAt);
  createHash("sha1")
    .update(out.subarray(0, trailerAt + 20))
    .digest()
    .copy(out, trailerAt + 20);
  return out;
}

/** Entry numbers ordered by object id: by the ids' first four bytes, then byte by byte. */
function sortedById(oids: Uint8Array, count: number): Uint32Array {
  const view = new DataView(oids.buffer, oids.byteOffset, oids.byteLength);
  const keys = new Uint32Array(count);
  for (let n = 0; n < count; n += 1) keys[n] = view.getUint32(n * 20);
  const order = new Uint32Array(count);
  for (let n = 0; n < count; n += 1) order[n] = n;
  return order.sort((a, b) => {
    const byKey = keys[a]! - keys[b]!;
    if (byKey !== 0) return byKey;
    for (let at = 4; at < 20; at += 1) {
      const byByte = oids[a * 20 + at]! - oids[b * 20 + at]!;
      if (byByte !== 0) return byByte;
    }
    return 0;
  });
}
