// The first bytes of a zlib stream without inflating the rest: enough of an object to read a
// header (a loose object's `<type> <size>`, a delta's result size). A highly compressible blob
// (gigabytes of one byte, a few megabytes packed) must be sized without being inflated whole.

import { constants, inflateSync } from "node:zlib";

/** Compressed prefixes tried in turn: a dynamic Huffman block header fits the later ones. */
const PREFIXES = [64, 512, 4096, 32768];

/** At least `want` bytes of what `compressed` inflates to (fewer only if it is shorter). */
export function inflatePrefix(compressed: Uint8Array, want: number): Buffer {
  let output = Buffer.alloc(0);
  for (const length of PREFIXES) {
    const input = compressed.subarray(0, length);
    // Z_SYNC_FLUSH returns what the given input yields, without demanding the stream's end.
    output = inflateSync(input, { finishFlush: constants.Z_SYNC_FLUSH });
    if (output.byteLength >= want || input.byteLength === compressed.byteLength) break;
  }
  return output.subarray(0, want);
}
