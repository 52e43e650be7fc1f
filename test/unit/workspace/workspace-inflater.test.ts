// The inflater reuses one native zlib handle; node:zlib's own inflateSync (a new stream per call)
// is its fallback. Both must give the same outcome for every input, and the reused handle must
// come back whole from a damaged stream.

import zlib from "node:zlib";
import { afterAll, describe, expect, it } from "@jest/globals";
import { inflateStream, useReusedHandle } from "../../../src/workspace/objects/inflater.ts";

const text = Buffer.from("a line of text that compresses well\n".repeat(2000));
const stream = zlib.deflateSync(text);

afterAll(() => {
  useReusedHandle(true);
});

it("reuses a native handle on this Node (a Node without its internals would fall back)", () => {
  expect(useReusedHandle(true)).toBe(true);
});

describe.each([
  ["one reused zlib handle", true],
  ["inflateSync, a stream per call", false],
])("inflateStream through %s", (_name, reused) => {
  it("inflates a stream and says how much input it used, ignoring what follows it", () => {
    useReusedHandle(reused);
    const input = Buffer.concat([stream, Buffer.from("the next pack entry")]);
    const result = inflateStream(input, text.byteLength, text.byteLength);
    expect(result).toMatchObject({ kind: "ended", consumed: stream.byteLength });
    expect(result.kind === "ended" && result.data.equals(text)).toBe(true);
  });

  it("grows its output past a size guess that is too small", () => {
    useReusedHandle(reused);
    const result = inflateStream(stream, Number.POSITIVE_INFINITY, 10);
    expect(result.kind === "ended" && result.data.equals(text)).toBe(true);
  });

  it("stops one byte past the limit", () => {
    useReusedHandle(reused);
    expect(inflateStream(stream, text.byteLength - 1, text.byteLength - 1)).toEqual({ kind: "over_limit" });
    // A header that lies low: the declared size is also the cap.
    expect(inflateStream(stream, 100, 100)).toEqual({ kind: "over_limit" });
  });

  it("says a stream cut short is truncated", () => {
    useReusedHandle(reused);
    expect(inflateStream(stream.subarray(0, stream.byteLength - 4), text.byteLength)).toEqual({
      kind: "truncated",
    });
    expect(inflateStream(Buffer.alloc(0), 10)).toEqual({ kind: "truncated" });
  });

  it("inflates what has arrived of a longer input: cut short is truncated, never an error", () => {
    useReusedHandle(reused);
    const size = text.byteLength;
    for (const cut of [0, 1, 2, 100, stream.byteLength - 4, stream.byteLength - 1]) {
      expect(inflateStream(stream.subarray(0, cut), size, size, true)).toEqual({ kind: "truncated" });
    }
    // The whole stream and nothing after it: it may still be going on, for all that has arrived.
    expect(inflateStream(stream, size, size, true)).toEqual({ kind: "truncated" });
    const input = Buffer.concat([stream, Buffer.from("x")]);
    const result = inflateStream(input, size, size, true);
    expect(result).toMatchObject({ kind: "ended", consumed: stream.byteLength });
    expect(result.kind === "ended" && result.data.equals(text)).toBe(true);
    const flipped = Buffer.concat([stream, Buffer.from("x")]);
    flipped[stream.byteLength - 2]! ^= 0xff;
    expect(inflateStream(flipped, size, size, true)).toMatchObject({ kind: "invalid" });
  });

  it("refuses damaged streams, and inflates the next one correctly", () => {
    useReusedHandle(reused);
    const flipped = Buffer.from(stream);
    flipped[stream.byteLength - 2]! ^= 0xff; // the Adler-32 checksum
    expect(inflateStream(flipped, text.byteLength)).toMatchObject({ kind: "invalid" });
    expect(inflateStream(Buffer.from("not zlib at all"), 100)).toMatchObject({ kind: "invalid" });
    const again = inflateStream(stream, text.byteLength, text.byteLength);
    expect(again.kind === "ended" && again.data.equals(text)).toBe(true);
  });

  it("inflates an empty object and a stream larger than one output piece", () => {
    useReusedHandle(reused);
    expect(inflateStream(zlib.deflateSync(Buffer.alloc(0)), 0, 0)).toMatchObject({ kind: "ended" });
    const big = Buffer.alloc(9 * 1024 * 1024, 7);
    const result = inflateStream(zlib.deflateSync(big), big.byteLength, big.byteLength);
    expect(result.kind === "ended" && result.data.equals(big)).toBe(true);
  });
});
