// search_repository skips files whose bytes do not hold the query's UTF-8 bytes before decoding
// them. On generated repositories (multi-byte text, CRLF, a BOM, U+FFFD, invalid UTF-8, NUL bytes,
// lone surrogates in the query), its matches equal those of the plain definition: decode each
// text file, split it into git's lines, and look for the query in every line.

import { describe, expect, it } from "@jest/globals";
import { createToolRegistry } from "../../../src/tools/registry.ts";
import { type MemoryTree, memoryRepository } from "../../support/memory-repository.ts";
import { seededRandom } from "../../support/seeded-random.ts";

const PIECES = ["a", "b", "é", "€", "😀", "\r\n", "\n", "\r", " ", "\uFFFD", "ab", "é😀"];
const BYTE_PIECES = [[0xff], [0xc3], [0x00], [0xef, 0xbb, 0xbf], [0xed, 0xa0, 0x80]];

function generatedFile(random: () => number): Uint8Array {
  const parts: Buffer[] = [];
  if (random() < 0.1) parts.push(Buffer.from([0xef, 0xbb, 0xbf]));
  const length = Math.floor(random() * 40);
  for (let index = 0; index < length; index += 1) {
    parts.push(
      random() < 0.03
        ? Buffer.from(BYTE_PIECES[Math.floor(random() * BYTE_PIECES.length)]!)
        : Buffer.from(PIECES[Math.floor(random() * PIECES.length)]!, "utf8"),
    );
  }
  return Buffer.concat(parts);
}

function generatedQuery(random: () => number): string {
  if (random() < 0.05) return "\uD83D"; // a lone surrogate: matches half of a 😀 (UTF-16 indexOf)
  const length = 1 + Math.floor(random() * 3);
  let query = "";
  for (let index = 0; index < length; index += 1) query += PIECES[Math.floor(random() * 6)]!;
  return query.replace(/[\r\n]/g, "") || "a";
}

/** The definition: every text file decoded whole, git's lines, indexOf on each line. */
function expectedMatches(tree: Record<string, Uint8Array>, query: string): [string, number][] {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const out: [string, number][] = [];
  for (const path of Object.keys(tree).sort()) {
    const bytes = tree[path]!;
    if (bytes.subarray(0, 8000).includes(0)) continue;
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      continue;
    }
    const lines = text === "" ? [] : text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    lines.forEach((line, index) => {
      if (line.replace(/\r$/, "").includes(query)) out.push([path, index + 1]);
    });
  }
  return out;
}

describe("search_repository on generated repositories", () => {
  it.each(Array.from({ length: 40 }, (_, index) => index + 1))("seed %i", async (seed) => {
    const random = seededRandom(seed);
    const tree: Record<string, Uint8Array> = {};
    for (let index = 0; index < 8; index += 1) tree[`f${index}.txt`] = generatedFile(random);
    const registry = createToolRegistry(memoryRepository({ head: tree as MemoryTree }));
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const query = generatedQuery(random);
      const execution = await registry.execute("search_repository", { query, limit: 100 });
      const result = execution.result as { ok: true; matches: { path: string; line: number }[] };
      expect([query, result.matches.map((m) => [m.path, m.line])]).toEqual([
        query,
        expectedMatches(tree, query),
      ]);
    }
  });
});
