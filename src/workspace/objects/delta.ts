// Applies a git delta (pack entry types OFS_DELTA and REF_DELTA) to its base. The format is
// two size varints then copy/insert instructions (gitformat-pack, "Deltified representation").
// Every read is bounds-checked, because a damaged pack must end in an error, never in garbage.

import { CorruptObjectStoreError } from "./git-object.ts";

function corrupt(what: string): CorruptObjectStoreError {
  return new CorruptObjectStoreError(`corrupt delta: ${what}`);
}

function readSize(delta: Uint8Array, start: number): { value: number; next: number } {
  let value = 0;
  let shift = 0;
  let position = start;
  for (;;) {
    const byte = delta[position];
    if (byte === undefined) throw corrupt("truncated size header");
    position += 1;
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if ((byte & 0x80) === 0) return { value, next: position };
    if (shift > 49) throw corrupt("size header too long");
  }
}

/** The size of the object a delta produces, read from its header alone. */
export function deltaResultSize(delta: Uint8Array): number {
  return readSize(delta, readSize(delta, 0).next).value;
}

export function applyDelta(base: Uint8Array, delta: Uint8Array): Uint8Array {
  const baseSize = readSize(delta, 0);
  if (baseSize.value !== base.byteLength) {
    throw corrupt(`base is ${base.byteLength} bytes, the delta expects ${baseSize.value}`);
  }
  const resultSize = readSize(delta, baseSize.next);
  // Not zero-filled: the instructions write the result front to back, and a result they do not
  // fill exactly is an error below, never returned. Views are plain Uint8Arrays: a Buffer's
  // `subarray` is a JavaScript wrapper that builds a Buffer, several times the cost per copy.
  const result = Buffer.allocUnsafe(resultSize.value);
  const end = delta.byteLength;
  const baseEnd = base.byteLength;
  const resultEnd = result.byteLength;
  let written = 0;
  let position = resultSize.next;
  while (position < end) {
    const command = delta[position]!;
    position += 1;
    if ((command & 0x80) !== 0) {
      // Copy from the base: the low 4 bits say which offset bytes follow (little-endian), the
      // next 3 which size bytes; a size of 0 means 0x10000. Unrolled like git's patch-delta.c; a
      // read past the end yields undefined (0 here) and is caught just after.
      let offset = 0;
      let size = 0;
      if ((command & 0x01) !== 0) offset = delta[position++]!;
      if ((command & 0x02) !== 0) offset |= delta[position++]! << 8;
      if ((command & 0x04) !== 0) offset |= delta[position++]! << 16;
      if ((command & 0x08) !== 0) offset += (delta[position++]! << 24) >>> 0;
      if ((command & 0x10) !== 0) size = delta[position++]!;
      if ((command & 0x20) !== 0) size |= delta[position++]! << 8;
      if ((command & 0x40) !== 0) size |= delta[position++]! << 16;
      if (position > end) throw corrupt("truncated copy instruction");
      if (size === 0) size = 0x10000;
      if (offset + size > baseEnd) throw corrupt("copy reaches past the end of the base");
      if (written + size > resultEnd) throw corrupt("copy overflows the declared size");
      result.set(new Uint8Array(base.buffer, base.byteOffset + offset, size), written);
      written += size;
    } else if (command !== 0) {
      // Insert the next `command` bytes of the delta itself.
      if (position + command > end) throw corrupt("truncated insert instruction");
      if (written + command > resultEnd) throw corrupt("insert overflows the declared size");
      result.set(new Uint8Array(delta.buffer, delta.byteOffset + position, command), written);
      written += command;
      position += command;
    } else {
      throw corrupt("reserved instruction 0");
    }
  }
  if (written !== resultEnd) {
    throw corrupt(`produced ${written} bytes, the delta declares ${resultEnd}`);
  }
  return result;
}
