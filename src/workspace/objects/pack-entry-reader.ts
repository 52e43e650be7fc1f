// Reads the entries of a pack being indexed, in order, without knowing where each one ends: a
// moving window over the pack (one read serves many entries), zlib inflating an entry and
// reporting how much compressed input it used (inflater.ts), whole objects too large to hold hashed as they
// inflate (gigabytes of one byte pack into megabytes), and CRC-32s computed a window at a time.

import { crc32, createInflate } from "node:zlib";
import { CorruptObjectStoreError, type GitObjectType, objectHash } from "./git-object.ts";
import { inflateStream } from "./inflater.ts";
import type { PackSource } from "./pack-source.ts";

/** Whole objects larger than this are hashed as they inflate, never held whole. */
export const STREAM_ABOVE = 16 * 1024 * 1024;
const STREAM_PIECE = 1024 * 1024;
/**
 * What a read at a known entry brings in: resolving deltas jumps from base to delta, usually a few
 * entries apart, and a whole window per jump would copy megabytes for kilobytes.
 */
const JUMP_AHEAD = 64 * 1024;

export function corruptPack(what: string): CorruptObjectStoreError {
  return new CorruptObjectStoreError(`corrupt pack: ${what}`);
}

/** zlib's own bound on how large `size` bytes can become compressed (deflateBound), plus slack. */
const deflateBound = (size: number): number => size + (size >> 12) + (size >> 14) + (size >> 25) + 64;

export interface PackEntryReader {
  /**
   * Pack bytes [position, position + length), clamped to the entries' end; valid until the next
   * call. A read outside the window brings in `ahead` bytes (default: the window's size).
   */
  view(position: number, length: number, ahead?: number): Buffer;
  /**
   * Inflates the entry data at `dataStart` (`known` = its compressed length, when known: then the
   * read is taken as a jump, and brings in only a little more than the entry).
   */
  inflateAt(dataStart: number, size: number, known?: number): { data: Buffer; compressed: number };
  /** Hashes a whole object as it inflates: its id and compressed length. */
  streamWhole(
    dataStart: number,
    type: GitObjectType,
    size: number,
  ): Promise<{ oid: string; compressed: number }>;
  /** CRC-32 of pack bytes [from, to). */
  crcOf(from: number, to: number): number;
}

export function createPackEntryReader(
  source: PackSource,
  dataEnd: number,
  windowBytes: number,
): PackEntryReader {
  const corrupt = corruptPack;
  // A moving window over the pack: consecutive entries are served from one read.
  let window: { start: number; bytes: Buffer } = { start: 0, bytes: Buffer.alloc(0) };
  const view = (position: number, length: number, ahead = windowBytes): Buffer => {
    const end = Math.min(position + length, dataEnd);
    const inWindow = position >= window.start && end <= window.start + window.bytes.byteLength;
    if (!inWindow) {
      window = {
        start: position,
        bytes: source.read(position, Math.min(Math.max(ahead, end - position), dataEnd - position)),
      };
    }
    return window.bytes.subarray(position - window.start, end - window.start);
  };

  // zlib stops at the end of the entry's zlib stream and reports how much input it used. The
  // input offered is zlib's bound for the declared size; a stream that needs more (another
  // deflate implementation) is retried with everything up to the end of the pack.
  const inflateAt = (
    dataStart: number,
    size: number,
    known?: number,
  ): { data: Buffer; compressed: number } => {
    let length = known ?? Math.min(dataEnd - dataStart, deflateBound(size));
    const ahead = known === undefined ? windowBytes : Math.min(windowBytes, JUMP_AHEAD);
    for (;;) {
      const inflated = inflateStream(view(dataStart, length, ahead), size, size);
      if (inflated.kind === "ended" && inflated.data.byteLength === size) {
        return { data: inflated.data, compressed: inflated.consumed };
      }
      if (inflated.kind === "truncated" && dataStart + length < dataEnd) {
        length = dataEnd - dataStart;
        continue;
      }
      if (inflated.kind === "invalid" || inflated.kind === "truncated") {
        const why = inflated.kind === "invalid" ? inflated.message : "unexpected end of file";
        throw corrupt(`cannot inflate the entry at ${dataStart} (${why})`);
      }
      const what = inflated.kind === "ended" ? `${inflated.data.byteLength} bytes` : "more bytes";
      throw corrupt(`an entry inflates to ${what}, not the declared ${size}`);
    }
  };

  // An object too large to hold (gigabytes of one byte pack into megabytes) is hashed as it
  // inflates, a megabyte at a time, like git's core.bigFileThreshold path.
  const streamWhole = async (dataStart: number, type: GitObjectType, size: number) => {
    const hash = objectHash(type, size);
    const inflater = createInflate({ chunkSize: STREAM_PIECE });
    let produced = 0;
    inflater.on("data", (chunk: Buffer) => {
      produced += chunk.byteLength;
      hash.update(chunk);
    });
    const ended = new Promise<void>((resolve, reject) => {
      inflater.on("end", resolve);
      inflater.on("error", reject);
    });
    try {
      // Feed until zlib reports the stream's end by leaving input unconsumed (the next entry).
      let fed = 0;
      while (dataStart + fed < dataEnd && inflater.bytesWritten === fed) {
        const piece = view(dataStart + fed, STREAM_PIECE);
        await new Promise<void>((resolve, reject) =>
          inflater.write(piece, (error) => (error ? reject(error) : resolve())),
        );
        fed += piece.byteLength;
      }
      inflater.end();
      await ended;
    } catch (error) {
      inflater.destroy();
      throw corrupt(`cannot inflate the entry at ${dataStart} (${(error as Error).message})`);
    }
    if (produced !== size) throw corrupt(`an entry inflates to ${produced} bytes, not the declared ${size}`);
    return { oid: hash.digest("hex"), compressed: inflater.bytesWritten };
  };

  /** CRC-32 of pack bytes [from, to), a window at a time. */
  const crcOf = (from: number, to: number): number => {
    let crc = 0;
    for (let at = from; at < to; at += STREAM_PIECE)
      crc = crc32(view(at, Math.min(STREAM_PIECE, to - at)), crc);
    return crc;
  };

  return { view, inflateAt, streamWhole, crcOf };
}
