// GitHub's answers parsed a piece at a time: the same value as JSON.parse whatever the bytes'
// split (inside strings, escapes and multi-byte characters), a turn of the event loop after every
// 64 KiB, and a clear error for a body that is missing or not JSON.

import { describe, expect, it } from "@jest/globals";
import { parseJsonInSlices } from "../../../../src/forges/github/json-in-slices.ts";

/** A small deterministic generator (mulberry32), so a failing case can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ["a", "é", "😀", '"', "\\", "\n", "\u0000", "{", "]", ",", ":", " ", "\u2028", "x".repeat(70)];

function value(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 3 ? 5 : 7));
  if (pick === 0) return null;
  if (pick === 1) return next() < 0.5;
  if (pick === 2) return Math.round((next() - 0.5) * 1e9) / (next() < 0.5 ? 1 : 1000);
  if (pick === 3 || pick === 4) {
    return Array.from(
      { length: Math.floor(next() * 8) },
      () => PIECES[Math.floor(next() * PIECES.length)],
    ).join("");
  }
  const length = Math.floor(next() * 6);
  if (pick === 5) return Array.from({ length }, () => value(next, depth + 1));
  return Object.fromEntries(
    Array.from({ length }, (_, i) => [`${value(next, 4)}${i}`, value(next, depth + 1)]),
  );
}

/** The bytes in chunks cut at random points (a chunk may end inside any token or character). */
async function* chunked(bytes: Uint8Array, next: () => number): AsyncGenerator<Uint8Array> {
  let at = 0;
  while (at < bytes.length) {
    const size = 1 + Math.floor(next() * 40);
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

const bytesOf = (text: string) => new TextEncoder().encode(text);

describe("parseJsonInSlices", () => {
  it("gives JSON.parse's value however the body is cut into chunks (1,000 generated bodies)", async () => {
    for (let seed = 1; seed <= 1000; seed++) {
      const next = random(seed);
      const text = JSON.stringify(value(next, 0));
      const parsed = await parseJsonInSlices(chunked(bytesOf(text), next), "the body", {
        yieldTurn: async () => {},
      });
      expect({ seed, parsed }).toEqual({ seed, parsed: JSON.parse(text) });
    }
  });

  it("refuses every body cut short, wherever the cut falls (100 generated bodies)", async () => {
    for (let seed = 1; seed <= 100; seed++) {
      const next = random(seed);
      const text = JSON.stringify({ files: [value(next, 1), value(next, 1)] });
      for (let cut = 0; cut < text.length; cut++) {
        const prefix = text.slice(0, cut);
        await expect(
          parseJsonInSlices(chunked(bytesOf(prefix), next), "the body", { yieldTurn: async () => {} }),
        ).rejects.toThrow(/^the body is not valid JSON: /);
      }
    }
  });

  it("reads a web ReadableStream (a fetch body), as Octokit hands it over", async () => {
    const body = new Response(JSON.stringify({ files: [{ filename: "src/a.ts" }] })).body;
    expect(await parseJsonInSlices(body, "the body")).toEqual({ files: [{ filename: "src/a.ts" }] });
  });

  it("yields a turn after every 64 KiB, however large the chunks arrive", async () => {
    const files = Array.from({ length: 300 }, (_, n) => ({ filename: `${"a".repeat(3000)}-${n}` }));
    const bytes = bytesOf(JSON.stringify({ files }));
    let turns = 0;
    const parsed = await parseJsonInSlices(
      (async function* () {
        yield bytes; // one chunk of ~900 KB: all of it already there
      })(),
      "the body",
      {
        yieldTurn: async () => {
          turns++;
        },
      },
    );
    expect(parsed).toEqual({ files });
    expect(turns).toBe(Math.ceil(bytes.length / (64 * 1024)));
  });

  it.each([
    ["a cut-off answer", '{"merge_base_commit":{"sha":"abc"},"files":['],
    ["an HTML page", "<html><body>Unicorn!</body></html>"],
    ["two values", '{"a":1} {"b":2}'],
    ["nothing", ""],
  ])("refuses %s with an error naming the answer", async (_name, text) => {
    await expect(parseJsonInSlices(chunked(bytesOf(text), random(7)), "GitHub's comparison")).rejects.toThrow(
      /^GitHub's comparison is not valid JSON: /,
    );
  });

  it("refuses a missing body, and lets a connection lost mid-body go up as it came", async () => {
    await expect(parseJsonInSlices(null, "GitHub's comparison")).rejects.toThrow(
      "GitHub's comparison had no body",
    );
    const lost = new Error("socket hang up");
    await expect(
      parseJsonInSlices(
        (async function* () {
          yield bytesOf('{"files":[');
          throw lost;
        })(),
        "GitHub's comparison",
      ),
    ).rejects.toBe(lost);
  });
});
