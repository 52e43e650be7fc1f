// A commit's header as a history walk reads it (workspace/objects/commit-object.ts), byte by byte,
// against the regular expressions that define what it accepts: the same parents and committer
// time for generated headers near every edge of those patterns (ids one character off, upper-case
// hex, zones without a sign, carriage returns, no digits, several committer lines), and the same
// refusal of a commit without its tree line.

import { describe, expect, it } from "@jest/globals";
import { parseCommitHeader } from "../../../src/workspace/objects/commit-object.ts";
import { CorruptObjectStoreError } from "../../../src/workspace/objects/git-object.ts";
import { seededRandom } from "../../support/seeded-random.ts";

/** What the header's patterns accept, read the plain way. */
function byPatterns(text: string): { parents: string[]; time: number } | "no tree line" {
  const lines = text.split("\n\n")[0]!.split("\n");
  if (!/^tree [0-9a-f]{40}$/.test(lines[0]!)) return "no tree line";
  const parents: string[] = [];
  let time = 0;
  for (const line of lines.slice(1)) {
    const parent = /^parent ([0-9a-f]{40})$/.exec(line);
    if (parent !== null) parents.push(parent[1]!);
    const committer = /^committer .* (\d+) [+-]\d{4}$/.exec(line);
    if (committer !== null) time = Number(committer[1]);
  }
  return { parents, time };
}

function byParser(text: string): { parents: readonly string[]; time: number } | "no tree line" {
  try {
    return parseCommitHeader(Buffer.from(text, "latin1"), "c0ffee");
  } catch (error) {
    if (error instanceof CorruptObjectStoreError) return "no tree line";
    throw error;
  }
}

const HEX = "0123456789abcdef";

function generatedHeader(random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const id = () => {
    const length = pick([40, 40, 40, 39, 41]);
    let text = "";
    for (let n = 0; n < length; n += 1) text += HEX[Math.floor(random() * 16)];
    if (random() < 0.1) text = text.toUpperCase();
    if (random() < 0.05) text = `${text.slice(0, 10)}g${text.slice(11)}`;
    return text;
  };
  const who = () =>
    pick(["A U Thor <a@example.com>", "", " ", "x\ry <e>", "name 12", "n\u00e9e <\u00ff>", "a b c"]);
  const seconds = () => pick(["1700000000", "0", "", "12a", "007", "99999999999999999999", " 5"]);
  const zone = () => pick(["+0000", "-0130", "0000", "+000", "+00000", "*0000", "+0a00"]);
  const lines = [random() < 0.95 ? `tree ${id()}` : pick([`tree  ${id()}`, `Tree ${id()}`, "tree"])];
  // Each kind of line is made only when picked: making every candidate was most of the test's time.
  const kinds: (() => string)[] = [
    () => `parent ${id()}`,
    () => `parent ${id()} `,
    () => `parents ${id()}`,
    () => `author ${who()} ${seconds()} ${zone()}`,
    () => `committer ${who()} ${seconds()} ${zone()}`,
    () => `committer ${who()}${seconds()} ${zone()}`,
    () => `committer${seconds()} ${zone()}`,
    () => `committer ${seconds()} ${zone()}`,
    () => "gpgsig -----BEGIN PGP SIGNATURE-----",
    () => " committer x 5 +0000",
  ];
  const count = Math.floor(random() * 6);
  for (let n = 0; n < count; n += 1) lines.push(pick(kinds)());
  return `${lines.join("\n")}${pick(["\n\nmessage\ncommitter x 9 +0000\n", "\n", ""])}`;
}

describe("a commit's header, read byte by byte", () => {
  it("reads a real commit's parents and committer time", () => {
    const text = [
      `tree ${"a".repeat(40)}`,
      `parent ${"b".repeat(40)}`,
      `parent ${"c".repeat(40)}`,
      "author A U Thor <a@example.com> 1600000000 +0200",
      "committer C O Mitter <c@example.com> 1700000000 -0130",
      "",
      "the message",
    ].join("\n");
    expect(byParser(text)).toEqual({ parents: ["b".repeat(40), "c".repeat(40)], time: 1_700_000_000 });
  });

  it("agrees with the header's patterns on 5,000 generated headers near their edges", () => {
    const random = seededRandom(0xc0ffee);
    const seen = { refused: 0, timed: 0, untimedCommitter: 0, parents: 0 };
    for (let n = 0; n < 5_000; n += 1) {
      const text = generatedHeader(random);
      const expected = byPatterns(text);
      const parsed = byParser(text);
      // One expect per disagreement: jest's deep equality on every case was most of the test's time.
      if (JSON.stringify(parsed) !== JSON.stringify(expected))
        expect([text, parsed]).toEqual([text, expected]);
      if (expected === "no tree line") seen.refused += 1;
      else {
        if (expected.time !== 0) seen.timed += 1;
        else if (text.includes("\ncommitter")) seen.untimedCommitter += 1;
        if (expected.parents.length > 0) seen.parents += 1;
      }
    }
    // Every outcome is met many times: the generator reaches both sides of each pattern.
    for (const count of Object.values(seen)) expect(count).toBeGreaterThan(100);
  });
});
