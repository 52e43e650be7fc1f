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
  const result = new Uint8Array(resultSize.value);
  let written = 0;
  let position = resultSize.next;
  while (position < delta.byteLength) {
    const command = delta[position]!;
    position += 1;
    if ((command & 0x80) !== 0) {
      // Copy from the base: the low 4 bits say which offset bytes follow, the next 3 which size
      // bytes; a size of 0 means 0x10000.
      let offset = 0;
      let size = 0;
      for (let bit = 0; bit < 4; bit += 1) {
        if ((command & (1 << bit)) === 0) continue;
        const byte = delta[position];
        if (byte === undefined) throw corrupt("truncated copy instruction");
        offset += byte * 2 ** (8 * bit);
        position += 1;
      }
      for (let bit = 0; bit < 3; bit += 1) {
        if ((command & (0x10 << bit)) === 0) continue;
        const byte = delta[position];
        if (byte === undefined) throw corrupt("truncated copy instruction");
        size += byte << (8 * bit);
        position += 1;
      }
      if (size === 0) size = 0x10000;
      if (offset + size > base.byteLength) throw corrupt("copy reaches past the end of the base");
      if (written + size > result.byteLength) throw corrupt("copy overflows the declared size");
      result.set(base.subarray(offset, offset + size), written);
      written += size;
    } else if (command !== 0) {
      // Insert the next `command` bytes of the delta itself.
      if (position + command > delta.byteLength) throw corrupt("truncated insert instruction");
      if (written + command > result.byteLength) throw corrupt("insert overflows the declared size");
      result.set(delta.subarray(position, position + command), written);
      written += command;
      position += command;
    } else {
      throw corrupt("reserved instruction 0");
    }
  }
  if (written !== result.byteLength) {
    throw corrupt(`produced ${written} bytes, the delta declares ${result.byteLength}`);
  }
  return result;
}
