// The literal matchers of search_repository: each finds what indexOf finds, and examines each byte
// (or code unit) a bounded number of times, on the inputs that make indexOf slow too.

import { describe, expect, it } from "@jest/globals";
import { ByteLiteral, type ScanStats } from "../../../src/tools/literal-bytes.ts";
import { UnitLiteral } from "../../../src/tools/literal-units.ts";
import { seededRandom } from "../../support/seeded-random.ts";

const MIB = 1024 * 1024;

describe("ByteLiteral", () => {
  it("finds what Buffer.indexOf finds, within [from, end), on 3,000 generated cases", () => {
    const random = seededRandom(0x5ea7);
    const text = (n: number, alphabet: string) =>
      Array.from({ length: n }, () => alphabet[Math.floor(random() * alphabet.length)]!).join("");
    const wrong: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const alphabet = i % 2 === 0 ? "ab" : "abc\n";
      const bytes = Buffer.from(text(Math.floor(random() * 200), alphabet));
      const needle = Buffer.from(text(1 + Math.floor(random() * 12), alphabet));
      const from = Math.floor(random() * (bytes.length + 1));
      const end = from + Math.floor(random() * (bytes.length - from + 1));
      const expected = bytes.subarray(0, end).indexOf(needle, from);
      const found = new ByteLiteral(needle).find(bytes, from, end);
      if (found !== expected) wrong.push(`${bytes} ${needle} ${from} ${end}: ${found} ≠ ${expected}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it.each([
    [
      "one repeated byte, a near miss in the middle",
      "a".repeat(MIB),
      `${"a".repeat(255)}b${"a".repeat(256)}`,
    ],
    ["one repeated byte, a near miss at the end", "a".repeat(MIB), `${"a".repeat(511)}b`],
    [
      "a period of two, a near miss in the middle",
      "ab".repeat(MIB / 2),
      `${"ab".repeat(127)}b${"ab".repeat(128)}`,
    ],
    ["multi-byte text", "€".repeat(MIB / 3), `${"€".repeat(170)}a`],
  ])("examines each byte at most twice: %s", (_name, text, query) => {
    const bytes = Buffer.from(text);
    const stats: ScanStats = { steps: 0 };
    expect(new ByteLiteral(Buffer.from(query)).find(bytes, 0, bytes.length, stats)).toBe(-1);
    expect(stats.steps).toBeLessThanOrEqual(2 * bytes.length);
  });
});

describe("UnitLiteral", () => {
  it("finds what String.prototype.indexOf finds, lone surrogates included", () => {
    const random = seededRandom(0x5a17);
    const pieces = ["a", "b", "😀", "\uD83D", "\uDE00"];
    const text = (n: number) => Array.from({ length: n }, () => pieces[Math.floor(random() * 5)]!).join("");
    for (let i = 0; i < 2000; i++) {
      const haystack = text(Math.floor(random() * 60));
      const needle = text(1 + Math.floor(random() * 4));
      expect([haystack, needle, new UnitLiteral(needle).indexIn(haystack)]).toEqual([
        haystack,
        needle,
        haystack.indexOf(needle),
      ]);
    }
  });

  it("examines each code unit at most twice on a near miss", () => {
    const stats: ScanStats = { steps: 0 };
    const text = "a".repeat(MIB);
    expect(new UnitLiteral(`${"a".repeat(255)}\uD83D${"a".repeat(256)}`).indexIn(text, stats)).toBe(-1);
    expect(stats.steps).toBeLessThanOrEqual(2 * text.length);
  });
});
