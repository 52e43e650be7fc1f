// Takes the pack out of an upload-pack response before isomorphic-git sees it. The response is a
// pkt-line stream (gitprotocol-common): acknowledgements and shallow lines, then the pack in
// side-band channel 1, progress in channel 2. Channel-1 data goes to a sink (a file Loupe then
// indexes itself, objects/index-pack.ts); in its place isomorphic-git receives an empty pack,
// which it neither stores nor indexes. Everything else passes through byte for byte, so the
// negotiation (shallow lines, ACK/NAK, errors on channel 3) is still isomorphic-git's.
// Why: isomorphic-git holds the whole pack in memory and indexes it in pure JavaScript, peaking
// near six times the pack's size; this way the pack streams to disk as it arrives. Pack bytes go
// to the sink as views of the network's chunks, never copied into a growing buffer.

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

const HEX4 = /^[0-9a-f]{4}$/i;

/**
 * Passes `body` through, minus the channel-1 pack data, which goes to the sink `openSink()`
 * returns (opened at the first pack byte, closed at the end). A stream that is not pkt-lines is
 * passed on untouched from the first byte that does not parse.
 */
export async function* divertPack(
  body: AsyncIterable<Uint8Array>,
  openSink: () => Promise<PackSink>,
): AsyncGenerator<Uint8Array> {
  let sink: PackSink | null = null;
  let passthrough = false;
  // The line being read: its first 5 bytes (length and band) gather in `head`; then `left` bytes
  // of payload follow, diverted when `diverting`, else kept in `line` to pass on whole.
  let head = Buffer.alloc(0);
  let left = 0;
  let diverting = false;
  let line: Buffer[] = [];
  try {
    for await (const received of body) {
      if (passthrough) {
        yield received;
        continue;
      }
      const chunk = Buffer.from(received.buffer, received.byteOffset, received.byteLength);
      const out: Buffer[] = [];
      let at = 0;
      while (at < chunk.byteLength && !passthrough) {
        if (left > 0) {
          const take = Math.min(left, chunk.byteLength - at);
          const piece = chunk.subarray(at, at + take);
          if (diverting) await sink!.write(piece);
          else line.push(piece);
          left -= take;
          at += take;
          if (left === 0 && !diverting) out.push(...line.splice(0));
          continue;
        }
        // Gather the 4-byte length, and the band byte of a non-flush line.
        const need = head.byteLength < 4 ? 4 : 5;
        const take = Math.min(need - head.byteLength, chunk.byteLength - at);
        head = Buffer.concat([head, chunk.subarray(at, at + take)]);
        at += take;
        if (head.byteLength < need) continue;
        const text = head.toString("latin1", 0, 4);
        const length = Number.parseInt(text, 16);
        if (!HEX4.test(text) || (length > 0 && length < 4)) {
          passthrough = true; // not a pkt-line: leave the stream to isomorphic-git as it is
          out.push(head, chunk.subarray(at));
          head = Buffer.alloc(0);
          break;
        }
        if (length === 0 || length === 4) {
          out.push(head.subarray(0, 4)); // a flush-pkt, or an empty line
          head = head.subarray(4);
          continue;
        }
        if (head.byteLength < 5) continue; // the band byte is in a later chunk
        diverting = head[4] === PACK_CHANNEL;
        if (diverting && sink === null) {
          sink = await openSink();
          out.push(EMPTY_PACK_LINE);
        }
        if (!diverting) line = [head];
        left = length - 5;
        head = Buffer.alloc(0);
        if (left === 0 && !diverting) out.push(...line.splice(0));
      }
      if (out.length > 0) yield Buffer.concat(out);
    }
    // A truncated line: pass on what there is, and isomorphic-git reports it.
    const rest = Buffer.concat([head, ...line]);
    if (rest.byteLength > 0) yield rest;
  } finally {
    await sink?.close();
  }
}
