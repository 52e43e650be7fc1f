// search_repository's bounded cost: the work of a call is linear in the bytes it reads, whatever
// they hold (a megabyte of one repeated character and a query that nearly matches it everywhere
// cost what ordinary text costs); a call stops at its byte and time budgets and says where; and a
// long search lets other work run. What it finds is what the plain definition finds, excerpts
// included, also where bytes and lines disagree (CRLF, a last CR, a BOM, multi-byte text).

import { describe, expect, it } from "@jest/globals";
import { createToolRegistry, type ToolLimits } from "../../../src/tools/registry.ts";
import { probeEventLoopBlocks } from "../../support/event-loop-blocks.ts";
import { type MemoryTree, memoryRepository } from "../../support/memory-repository.ts";
import { searchOracle } from "../../support/search-oracle.ts";
import { seededRandom } from "../../support/seeded-random.ts";

const MIB = 1024 * 1024;
const NEAR_MISS = `${"a".repeat(255)}b${"a".repeat(256)}`;

type Tree = Record<string, Uint8Array>;

async function search(tree: Tree, args: Record<string, unknown>, limits: Partial<ToolLimits> = {}) {
  const registry = createToolRegistry(memoryRepository({ head: tree as MemoryTree }), limits);
  const execution = await registry.execute("search_repository", { limit: 100, ...args });
  return { result: execution.result as Record<string, unknown>, content: execution.content };
}

/** The median CPU time of a search, in ms (other processes' load does not count). */
async function cpuMs(tree: Tree, query: string): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < 3; run++) {
    const before = process.cpuUsage();
    await search(tree, { query });
    const used = process.cpuUsage(before);
    times.push((used.user + used.system) / 1000);
  }
  return times.sort((a, b) => a - b)[1]!;
}

/** `count` files of the same content (one blob, read once per file). */
function files(count: number, content: string | Uint8Array): Tree {
  const bytes = typeof content === "string" ? Buffer.from(content) : content;
  return Object.fromEntries(Array.from({ length: count }, (_, n) => [`data/f${n}.txt`, bytes]));
}

const ONE_CHARACTER = Buffer.alloc(MIB, "a");

describe("matches as the definition finds them", () => {
  it("on generated files where bytes and lines disagree, excerpts included", async () => {
    const random = seededRandom(0xc0de);
    const pieces = ["a", "b", "\r", "\n", "\r\n", "é", "😀", "\uFEFF", " ", "ab".repeat(60)];
    const text = (n: number) =>
      Array.from({ length: n }, () => pieces[Math.floor(random() * pieces.length)]!);
    for (let seed = 0; seed < 60; seed++) {
      const tree: Tree = {};
      for (let n = 0; n < 4; n++)
        tree[`f${n}.txt`] = Buffer.from((random() < 0.3 ? "\uFEFF" : "") + text(80).join(""));
      const query =
        text(1 + Math.floor(random() * 3))
          .join("")
          .replace(/\n/g, "") || "a";
      const { result } = await search(tree, { query });
      expect([query, result.matches]).toEqual([query, searchOracle(tree, query)]);
    }
  });
});

describe("cost linear in the bytes read", () => {
  const hostile = files(16, ONE_CHARACTER);

  it("a near miss in the middle of the query costs what a near miss at its end does", async () => {
    // Buffer.indexOf takes about 50 times longer on the first than on the second.
    const middle = await cpuMs(hostile, NEAR_MISS);
    const end = await cpuMs(hostile, `${"a".repeat(511)}b`);
    expect(middle).toBeLessThanOrEqual(3 * end + 20);
  });

  it("a megabyte of one character costs at most a few times a megabyte of ordinary text", async () => {
    const random = seededRandom(7);
    const words = ["const", "value", "return", "if", "(", ")", "{", "}", ";", "\n", "  "];
    const parts: string[] = [];
    for (let length = 0; length < MIB; length += parts.at(-1)!.length)
      parts.push(`${words[Math.floor(random() * words.length)]} `);
    const text = parts.join("").slice(0, MIB);
    const ordinary = files(16, text);
    const slow = await cpuMs(hostile, NEAR_MISS);
    const fast = await cpuMs(ordinary, NEAR_MISS);
    // Ordinary text lets the search skip to the query's rare first bytes; one repeated character
    // makes it read every byte. With Buffer.indexOf the ratio was about a hundred.
    expect(slow).toBeLessThanOrEqual(40 * fast + 40);
  });

  it("lets other work run: no block of the event loop reaches 100 ms", async () => {
    const probe = probeEventLoopBlocks();
    const { result } = await search(files(48, ONE_CHARACTER), { query: NEAR_MISS });
    const { maxBlockMs, boundMs } = probe.stop();
    expect(result).toMatchObject({ ok: true, matches: [], truncated: false });
    expect(maxBlockMs).toBeLessThan(boundMs);
  });
});

describe("budgets", () => {
  const lines = files(10, `${"a".repeat(1000)}\n`.repeat(100)); // 100,100 bytes each

  it("stops at the byte budget and says where", async () => {
    const { result } = await search(lines, { query: "ab" }, { maxSearchBytes: 250_000 });
    expect(result).toEqual({
      ok: true,
      query: "ab",
      path: "",
      matches: [],
      truncated: true,
      stopped_at: { path: "data/f2.txt", line: 50, files_left: 8, reason: "byte_budget" },
    });
  });

  it("keeps the matches found before it stopped", async () => {
    const tree = { ...lines, "data/f0.txt": Buffer.from("x\nab\n") };
    const { result } = await search(tree, { query: "ab" }, { maxSearchBytes: 150_000 });
    expect(result).toMatchObject({
      matches: [{ path: "data/f0.txt", line: 2, excerpt: "ab" }],
      truncated: true,
      stopped_at: { path: "data/f2.txt", reason: "byte_budget" },
    });
  });

  it("stops at the time budget and says where", async () => {
    const { result } = await search(files(64, ONE_CHARACTER), { query: NEAR_MISS }, { maxSearchMs: 1 });
    expect(result).toMatchObject({ truncated: true, stopped_at: { reason: "time_budget" } });
    expect((result.stopped_at as { files_left: number }).files_left).toBeGreaterThan(0);
  });

  it("stays under the result cap when it says where it stopped", async () => {
    const tree = { ...lines, "data/f0.txt": Buffer.from("ab\n".repeat(200)) };
    const { result, content } = await search(
      tree,
      { query: "ab" },
      { maxSearchBytes: 150_000, maxResultBytes: 1000 },
    );
    expect(result).toMatchObject({ truncated: true });
    expect(Buffer.byteLength(content)).toBeLessThanOrEqual(1000);
  });
});
