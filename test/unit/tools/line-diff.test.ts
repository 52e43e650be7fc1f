// diffLines: every result must be a valid edit (the unchanged lines of both sides are the same
// sequence), minimal while the search stays under its cost bound (checked against an LCS by
// dynamic programming), and still valid past it.

import { describe, expect, it } from "@jest/globals";
import { diffLines } from "../../../src/tools/line-diff.ts";
import { seededRandom as random } from "../../support/seeded-random.ts";

function lcsLength(a: readonly string[], b: readonly string[]): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i += 1) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j += 1) {
      row[j] = a[i - 1] === b[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, row[j - 1]!);
    }
    previous = row;
  }
  return previous[b.length]!;
}

function kept(lines: readonly string[], changed: Uint8Array): string[] {
  return lines.filter((_, index) => changed[index] === 0);
}

function expectValid(a: string[], b: string[]) {
  const { oldChanged, newChanged } = diffLines(a, b);
  expect(oldChanged).toHaveLength(a.length);
  expect(newChanged).toHaveLength(b.length);
  expect(kept(a, oldChanged)).toEqual(kept(b, newChanged));
  return oldChanged.reduce((n, bit) => n + bit, 0) + newChanged.reduce((n, bit) => n + bit, 0);
}

/** A text and an edited copy: lines from a small alphabet, so many lines repeat. */
function editedPair(
  next: () => number,
  length: number,
  alphabet: number,
  edits: number,
): [string[], string[]] {
  const a = Array.from({ length }, () => `l${Math.floor(next() * alphabet)}\n`);
  const b = [...a];
  for (let edit = 0; edit < edits; edit += 1) {
    const at = Math.floor(next() * (b.length + 1));
    const roll = next();
    if (roll < 0.4) b.splice(at, 1);
    else if (roll < 0.8) b.splice(at, 0, `l${Math.floor(next() * alphabet)}\n`);
    else b.splice(at, 1, `new ${edit}\n`);
  }
  return [a, b];
}

describe("diffLines", () => {
  it("marks nothing for equal texts and everything against an empty side", () => {
    expect(expectValid(["a\n", "b\n"], ["a\n", "b\n"])).toBe(0);
    expect(expectValid([], ["a\n", "b\n"])).toBe(2);
    expect(expectValid(["a\n", "b\n"], [])).toBe(2);
    expect(expectValid([], [])).toBe(0);
  });

  it("compares a line with its newline, so a lost final newline is a change", () => {
    const { oldChanged, newChanged } = diffLines(["a\n", "b\n"], ["a\n", "b"]);
    expect([...oldChanged]).toEqual([0, 1]);
    expect([...newChanged]).toEqual([0, 1]);
  });

  it("puts a change that could sit in several places as low as it goes, like git", () => {
    // Deleting one of two identical blocks: git shows the second one deleted.
    const { oldChanged } = diffLines(
      ["x\n", "a\n", "b\n", "a\n", "b\n", "y\n"],
      ["x\n", "a\n", "b\n", "y\n"],
    );
    expect([...oldChanged]).toEqual([0, 0, 0, 1, 1, 0]);
  });

  it.each(Array.from({ length: 60 }, (_, seed) => [seed]))(
    "finds a shortest edit for random pair %i",
    (seed) => {
      const next = random(seed + 1);
      const [a, b] = editedPair(
        next,
        20 + Math.floor(next() * 150),
        2 + Math.floor(next() * 12),
        Math.floor(next() * 40),
      );
      expect(expectValid(a, b)).toBe(a.length + b.length - 2 * lcsLength(a, b));
    },
  );

  it("stays valid for texts with no lines in common but repeated ones", () => {
    const a = Array.from({ length: 3000 }, (_, i) => `${i % 3}\n`);
    const b = Array.from({ length: 3000 }, (_, i) => `${i % 5}\n`);
    expectValid(a, b);
  });

  it("stays a valid (if not minimal) edit past the cost bound", () => {
    // Thousands of scattered edits over a repetitive text push the search past its bound.
    const next = random(99);
    const [a, b] = editedPair(next, 40_000, 50, 6000);
    expectValid(a, b);
  });
});
