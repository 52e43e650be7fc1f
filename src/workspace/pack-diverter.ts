// Takes the pack out of an upload-pack response before isomorphic-git sees it. The response is a
// pkt-line stream (gitprotocol-common): acknowledgements and shallow lines, then the pack in
// side-band channel 1, progress in channel 2. Channel-1 data goes to a sink (a file Loupe then
// indexes itself, objects/index-pack.ts); in its place isomorphic-git receives an empty pack,
// which it neither stores nor indexes. Everything else passes through byte for byte, so the
// negotiation (shallow lines, ACK/NAK, errors on channel 3) is still isomorphic-git's.
// Why: isomorphic-git holds the whole pack in memory and indexes it in pure JavaScript, peaking
// near six times the pack's size; this way the pack streams to disk.

import { createHash } from "node:crypto";

export interface PackSink {
  write(bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

const PACK_CHANNEL = 1;

/** A version-2 pack with no objects, and its trailing checksum. */
function emptyPack(): Buffer {
  const header = Buffer.from("5041434b0000000200000000", "hex");
  return Buffer.concat([header, createHash("sha1").update(header).digest()]);
}

/** The pkt-line that carries an empty pack on channel 1. */
export const EMPTY_PACK_LINE: Buffer = (() => {
  const payload = Buffer.concat([Buffer.from([PACK_CHANNEL]), emptyPack()]);
  return Buffer.concat([
    Buffer.from((payload.byteLength + 4).toString(16).padStart(4, "0"), "latin1"),
    payload,
  ]);
})();

/**
 * Passes `body` through, minus the channel-1 pack data, which goes to the sink `openSink()`
 * returns (opened at the first pack byte, closed at the end). A stream that is not pkt-lines is
 * passed on untouched from the first byte that does not parse.
 */
export async function* divertPack(
  body: AsyncIterable<Uint8Array>,
  openSink: () => Promise<PackSink>,
): AsyncGenerator<Uint8Array> {
  let pending: Buffer = Buffer.alloc(0);
  let sink: PackSink | null = null;
  let passthrough = false;
  try {
    for await (const chunk of body) {
      if (passthrough) {
        yield chunk;
        continue;
      }
      pending = pending.byteLength === 0 ? Buffer.from(chunk) : Buffer.concat([pending, chunk]);
      const out: Buffer[] = [];
      let at = 0;
      while (pending.byteLength - at >= 4) {
        const length = Number.parseInt(pending.toString("latin1", at, at + 4), 16);
        if (!/^[0-9a-f]{4}$/i.test(pending.toString("latin1", at, at + 4)) || (length > 0 && length < 4)) {
          passthrough = true; // not a pkt-line: leave the stream to isomorphic-git as it is
          break;
        }
        if (length === 0) {
          out.push(pending.subarray(at, at + 4)); // a flush-pkt
          at += 4;
          continue;
        }
        if (pending.byteLength - at < length) break; // the rest of this line is in a later chunk
        if (pending[at + 4] === PACK_CHANNEL) {
          if (sink === null) {
            sink = await openSink();
            out.push(EMPTY_PACK_LINE);
          }
          await sink.write(pending.subarray(at + 5, at + length));
        } else {
          out.push(pending.subarray(at, at + length));
        }
        at += length;
      }
      if (passthrough) out.push(pending.subarray(at));
      pending = passthrough ? Buffer.alloc(0) : pending.subarray(at);
      if (out.length > 0) yield Buffer.concat(out);
    }
    if (pending.byteLength > 0) yield pending; // a truncated line: isomorphic-git reports it
  } finally {
    await sink?.close();
  }
}
