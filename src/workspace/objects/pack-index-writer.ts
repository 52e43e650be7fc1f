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

const LARGE_OFFSET = 0x80000000;

export function writePackIndex(objects: readonly IndexedObject[], packChecksum: Buffer): Buffer {
  const sorted = [...objects].sort((a, b) => (a.oid < b.oid ? -1 : a.oid > b.oid ? 1 : 0));
  const count = sorted.length;
  const large = sorted.filter((o) => o.offset >= LARGE_OFFSET);
  const size = 8 + 256 * 4 + count * (20 + 4 + 4) + large.length * 8 + 40;
  const out = Buffer.alloc(size);
  out.writeUInt32BE(0xff744f63, 0);
  out.writeUInt32BE(2, 4);

  const fanout = new Uint32Array(256);
  for (const object of sorted) fanout[Number.parseInt(object.oid.slice(0, 2), 16)]! += 1;
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
  sorted.forEach((object, position) => {
    out.write(object.oid, idsAt + position * 20, "hex");
    out.writeUInt32BE(object.crc >>> 0, crcsAt + position * 4);
    if (object.offset < LARGE_OFFSET) {
      out.writeUInt32BE(object.offset, offsetsAt + position * 4);
    } else {
      out.writeUInt32BE((LARGE_OFFSET | nextLarge) >>> 0, offsetsAt + position * 4);
      out.writeBigUInt64BE(BigInt(object.offset), largeAt + nextLarge * 8);
      nextLarge += 1;
    }
  });
  const trailerAt = largeAt + large.length * 8;
  packChecksum.copy(out, trailerAt);
  createHash("sha1")
    .update(out.subarray(0, trailerAt + 20))
    .digest()
    .copy(out, trailerAt + 20);
  return out;
}
