// git's similarity estimate (diffcore-delta.c): a blob is cut into spans, each ending at a
// newline or after 64 bytes, and each span is hashed into one of 107,927 values. Two blobs are
// compared by the bytes their spans have in common, hash by hash, never by a line diff; that is
// what makes git's rename detection cheap enough to try every pair, and what `similarity index`
// reports. Ported as is, including its quirks, so that Loupe pairs the files git pairs.

import { looksBinary } from "../workspace/text.ts";

/** git's HASHBASE: a prime between 2^16 and 2^17. */
const HASH_BASE = 107_927;

/** Span hashes in ascending order with the bytes each stands for. */
export interface SpanCounts {
  readonly hashes: Uint32Array;
  readonly bytes: Uint32Array;
}

// One scratch table for every blob: spans are summed here, then copied out compactly.
const scratch = new Uint32Array(HASH_BASE);

export function hashSpans(data: Uint8Array): SpanCounts {
  // git's CRLF rule applies to text only (its binary test: a NUL in the first 8,000 bytes).
  const text = !looksBinary(data);
  const touched: number[] = [];
  const add = (hash: number, count: number) => {
    if (scratch[hash] === 0) touched.push(hash);
    scratch[hash]! += count;
  };
  let accum1 = 0;
  let accum2 = 0;
  let length = 0;
  for (let at = 0; at < data.length; at += 1) {
    const c = data[at]!;
    if (text && c === 0x0d && at + 1 < data.length && data[at + 1] === 0x0a) continue;
    const old1 = accum1;
    accum1 = ((accum1 << 7) ^ (accum2 >>> 25)) >>> 0;
    accum2 = ((accum2 << 7) ^ (old1 >>> 25)) >>> 0;
    accum1 = (accum1 + c) >>> 0;
    length += 1;
    if (length < 64 && c !== 0x0a) continue;
    add(((accum1 + (Math.imul(accum2, 0x61) >>> 0)) >>> 0) % HASH_BASE, length);
    length = 0;
    accum1 = 0;
    accum2 = 0;
  }
  // git drops a last span that has no newline and is shorter than 64 bytes; so does this.
  const hashes = Uint32Array.from(touched).sort();
  const bytes = new Uint32Array(hashes.length);
  for (let index = 0; index < hashes.length; index += 1) {
    bytes[index] = scratch[hashes[index]!]!;
    scratch[hashes[index]!] = 0;
  }
  return { hashes, bytes };
}

/** git's `src_copied`: per hash, the bytes both blobs have, summed. */
export function copiedBytes(source: SpanCounts, destination: SpanCounts): number {
  let copied = 0;
  let d = 0;
  const dHashes = destination.hashes;
  for (let s = 0; s < source.hashes.length; s += 1) {
    const hash = source.hashes[s]!;
    while (d < dHashes.length && dHashes[d]! < hash) d += 1;
    if (d < dHashes.length && dHashes[d] === hash) {
      copied += Math.min(source.bytes[s]!, destination.bytes[d]!);
      d += 1;
    }
  }
  return copied;
}
