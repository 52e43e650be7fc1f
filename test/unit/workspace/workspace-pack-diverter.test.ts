// divertPack: the pack leaves the upload-pack response for the sink, whatever the chunking; an
// empty pack takes its place; every other byte reaches isomorphic-git unchanged.

import { describe, expect, it } from "@jest/globals";
import { divertPack, EMPTY_PACK_LINE, type PackSink } from "../../../src/workspace/pack-diverter.ts";

const pkt = (payload: Buffer | string): Buffer => {
  const bytes = Buffer.isBuffer(payload) ? payload : Buffer.from(payload, "latin1");
  return Buffer.concat([Buffer.from((bytes.byteLength + 4).toString(16).padStart(4, "0"), "latin1"), bytes]);
};
const band = (channel: number, bytes: Buffer) => pkt(Buffer.concat([Buffer.from([channel]), bytes]));

async function* chunked(bytes: Buffer, sizes: () => number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.byteLength; ) {
    const size = Math.max(1, sizes());
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

async function run(input: AsyncIterable<Uint8Array>) {
  const written: Buffer[] = [];
  let opened = 0;
  let closed = 0;
  const sink: PackSink = {
    write: async (bytes) => {
      written.push(Buffer.from(bytes));
    },
    close: async () => {
      closed += 1;
    },
  };
  const out: Buffer[] = [];
  for await (const chunk of divertPack(input, async () => {
    opened += 1;
    return sink;
  }))
    out.push(Buffer.from(chunk));
  return { out: Buffer.concat(out), pack: Buffer.concat(written), opened, closed };
}

const sha = "a".repeat(40);
const packBytes = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 31) % 256));
// side-band-64k: a pkt-line is at most 65,520 bytes, so 65,515 bytes of pack data after the band byte.
const parts = [0, 1, 2, 3].map((n) => packBytes.subarray(n * 65_515, (n + 1) * 65_515));
const response = Buffer.concat([
  pkt(`shallow ${sha}\n`),
  pkt("NAK\n"),
  band(2, Buffer.from("Counting objects: 3\n")),
  band(1, parts[0]!),
  band(2, Buffer.from("Compressing objects\n")),
  band(1, parts[1]!),
  band(1, parts[2]!),
  band(1, parts[3]!),
  Buffer.from("0000", "latin1"),
]);
const expected = Buffer.concat([
  pkt(`shallow ${sha}\n`),
  pkt("NAK\n"),
  band(2, Buffer.from("Counting objects: 3\n")),
  EMPTY_PACK_LINE,
  band(2, Buffer.from("Compressing objects\n")),
  Buffer.from("0000", "latin1"),
]);

describe("divertPack", () => {
  it.each([
    ["one chunk", () => response.byteLength],
    ["17-byte chunks", () => 17],
    ["3-byte chunks (pkt headers split)", () => 3],
    ["64 KiB chunks", () => 65_536],
    [
      "odd chunks",
      (() => {
        let n = 0;
        return () => [7, 4093, 1, 65_521, 2][n++ % 5]!;
      })(),
    ],
  ])("sends the pack to the sink and an empty pack onwards: %s", async (_what, sizes) => {
    const result = await run(chunked(response, sizes));
    expect(result.pack.equals(packBytes)).toBe(true);
    expect(result.out.equals(expected)).toBe(true);
    expect([result.opened, result.closed]).toEqual([1, 1]);
  });

  it("leaves a response without a pack alone and opens no sink", async () => {
    const noPack = Buffer.concat([pkt("NAK\n"), Buffer.from("0000", "latin1")]);
    const result = await run(chunked(noPack, () => 2));
    expect(result.out.equals(noPack)).toBe(true);
    expect(result.opened).toBe(0);
  });

  it("passes a stream that is not pkt-lines through untouched", async () => {
    const html = Buffer.from("<html>502 Bad Gateway</html>");
    const result = await run(chunked(Buffer.concat([pkt("NAK\n"), html]), () => 5));
    expect(result.out.equals(Buffer.concat([pkt("NAK\n"), html]))).toBe(true);
    expect(result.opened).toBe(0);
  });

  it("closes the sink when the stream fails mid-pack", async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield band(1, parts[0]!);
      throw new Error("socket hang up");
    }
    await expect(run(failing())).rejects.toThrow("socket hang up");
  });
});
