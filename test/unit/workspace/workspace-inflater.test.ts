// The inflater reuses one native zlib handle; node:zlib's own inflateSync (a new stream per call)
// is its fallback. Both must give the same outcome for every input, and the reused handle must
// come back whole from a damaged stream.

import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import {
  inflateStream,
  openPieceInflater,
  useReusedHandle,
} from "../../../src/workspace/objects/inflater.ts";

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

describe("openPieceInflater: a stream inflated as its pieces arrive", () => {
  beforeAll(() => {
    useReusedHandle(true); // it needs the same internals; without them there is none
  });
  const next = Buffer.from("the next pack entry");
  const feedAll = (pieces: Uint8Array[], size = text.byteLength) => {
    const inflater = openPieceInflater()!;
    inflater.begin(size);
    const outcomes = pieces.map((piece) => inflater.feed(piece));
    inflater.close();
    return outcomes;
  };
  const cut = (bytes: Buffer, size: number) => {
    const pieces: Buffer[] = [];
    for (let at = 0; at < bytes.byteLength; at += size) pieces.push(bytes.subarray(at, at + size));
    return pieces;
  };

  it.each([1, 7, 1400, 65536])(
    "inflates pieces of %i bytes to the stream, and says how much it used",
    (size) => {
      const outcomes = feedAll(cut(Buffer.concat([stream, next]), size));
      const ended = outcomes.findIndex((outcome) => outcome.kind !== "more");
      const last = outcomes[ended]!;
      expect(last).toMatchObject({ kind: "ended", consumed: stream.byteLength });
      expect(last.kind === "ended" && last.data.equals(text)).toBe(true);
      expect(outcomes.slice(0, ended).every((outcome) => outcome.kind === "more")).toBe(true);
    },
  );

  it("sees a stream that ends with a piece only with the next one", () => {
    const [first, second] = feedAll([stream, next]);
    expect(first).toEqual({ kind: "more" });
    expect(second).toMatchObject({ kind: "ended", consumed: stream.byteLength });
  });

  it("refuses a stream that inflates to more or fewer bytes than declared", () => {
    expect(feedAll([Buffer.concat([stream, next])], text.byteLength - 1)[0]).toMatchObject({
      kind: "invalid",
    });
    expect(feedAll([Buffer.concat([stream, next])], text.byteLength + 1)[0]).toMatchObject({
      kind: "invalid",
    });
  });

  it("refuses a damaged stream, and inflates the next one with a new handle", () => {
    const inflater = openPieceInflater()!;
    const flipped = Buffer.concat([stream, next]);
    flipped[stream.byteLength - 2]! ^= 0xff; // the Adler-32 checksum
    inflater.begin(text.byteLength);
    expect(inflater.feed(flipped)).toMatchObject({ kind: "invalid" });
    inflater.begin(text.byteLength);
    const again = inflater.feed(Buffer.concat([stream, next]));
    expect(again.kind === "ended" && again.data.equals(text)).toBe(true);
    inflater.close();
  });
});
