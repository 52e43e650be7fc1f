// Positional reads of a pack being indexed: a file on disk, or bytes in memory (tests).

import fs from "node:fs";

/** Positional reads of a pack: a file on disk, or bytes in memory (tests). */
export interface PackSource {
  readonly size: number;
  /** Up to `length` bytes from `position` (fewer only at the end), valid until the next read. */
  read(position: number, length: number): Buffer;
}

export function bufferPackSource(pack: Buffer): PackSource {
  return { size: pack.byteLength, read: (position, length) => pack.subarray(position, position + length) };
}

/**
 * Reads an open file descriptor (the caller closes it) into one scratch buffer, reused by every
 * read, so walking a pack of any size allocates no more than its largest entry.
 */
export function filePackSource(fd: number): PackSource {
  let scratch = Buffer.alloc(0);
  return {
    size: fs.fstatSync(fd).size,
    read(position, length) {
      if (scratch.byteLength < length) scratch = Buffer.allocUnsafe(length);
      return scratch.subarray(0, fs.readSync(fd, scratch, 0, length, position));
    },
  };
}
