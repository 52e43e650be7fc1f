// The glob automaton (src/config/glob.ts) against the definition it replaces — expand every
// brace, then match each expansion on its own (test/support/glob-oracle.ts) — on generated
// patterns where braces meet classes, `**` and `/`; and its cost: brace alternatives share one
// automaton, so a pattern's 64 alternatives cost what one does, and a whole configuration at the
// glob limits reads a 4,096-character name in work linear in it.

import { describe, expect, it } from "@jest/globals";
import { checkGlob, compileGlobs, GLOB_LIMITS, type GlobStats } from "../../../src/config/glob.ts";
import { GlobAutomaton } from "../../../src/config/glob-automaton.ts";
import { compileGraphs } from "../../../src/config/glob-compile.ts";
import { type GlobGraph, globGraph } from "../../../src/config/glob-graph.ts";
import { globOracle } from "../../support/glob-oracle.ts";
import { seededRandom } from "../../support/seeded-random.ts";

describe("compileGlobs means what brace expansion then matching means", () => {
  it("on 3,000 generated sets of patterns where braces meet classes, ** and /", () => {
    const random = seededRandom(0x6c0b);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    const atoms = ["a", "b", "*", "**", "?", "[", "]", "[ab]", "[!a]", "[a-b]", "/", "**/", "/**", "-", "!"];
    const options = ["", "a", "b", "*", "**", "/", "[", "]", "?", "a/", "/b", "[a", "b]", "**/"];
    const option = () => Array.from({ length: Math.floor(random() * 3) }, () => pick(options)).join("");
    const part = () =>
      random() < 0.3
        ? `{${Array.from({ length: 1 + Math.floor(random() * 3) }, option).join(",")}}`
        : pick(atoms);
    const pattern = () => Array.from({ length: 1 + Math.floor(random() * 8) }, part).join("");
    const names = ["a", "b", "[", "]", "!", "-", "ab", "/"];
    const path = () => Array.from({ length: 1 + Math.floor(random() * 10) }, () => pick(names)).join("");
    const mismatches: string[] = [];
    let compared = 0;
    while (compared < 30_000) {
      const patterns = Array.from({ length: 1 + Math.floor(random() * 2) }, pattern);
      if (!patterns.every((p) => checkGlob(p).ok)) continue;
      const match = compileGlobs(patterns);
      for (let i = 0; i < 10; i++, compared++) {
        const name = path();
        const expected = patterns.some((p) => globOracle(p, name));
        if (match(name) !== expected) mismatches.push(`${JSON.stringify(patterns)} ${name} ${expected}`);
      }
    }
    expect(mismatches.slice(0, 10)).toEqual([]);
  });

  it("matches the same when it must forget the sets it remembered", () => {
    const random = seededRandom(0xf06e7);
    const patterns = ["**/*.{ts,js}", "src/**/[a-c]*", "{a,b}/**/x?", "**/*a*a*b"];
    const graphs = patterns.map((pattern) => globGraph(pattern) as GlobGraph);
    const roomy = new GlobAutomaton(compileGraphs(graphs));
    const forgetful = new GlobAutomaton(compileGraphs(graphs), 1);
    const names = ["a", "b", "x", "src", "c.ts", "a.js", "ab", "/"];
    for (let i = 0; i < 2000; i++) {
      const name = Array.from(
        { length: 1 + Math.floor(random() * 12) },
        () => names[Math.floor(random() * 8)]!,
      ).join("");
      expect([name, forgetful.matches(name, { steps: 0 })]).toEqual([
        name,
        roomy.matches(name, { steps: 0 }),
      ]);
    }
  });

  it("reads patterns and paths by code points", () => {
    expect(compileGlobs(["docs/😀?.md"])("docs/😀é.md")).toBe(true);
    expect(compileGlobs(["docs/?.md"])("docs/😀.md")).toBe(true);
    expect(compileGlobs(["[😀-😂]"])("😁")).toBe(true);
  });
});

/**
 * A pattern at the limits: 64 alternatives (or none) that all fit a run of `a`s, so that trying
 * them one by one tries all 64, then stars, and a run that never ends a name of `a`s.
 */
function limitPattern(n: number, alternatives: boolean): string {
  let pattern = `**/${alternatives ? "{,a}".repeat(6) : "aaaaaa"}`;
  for (let star = 0; star < 25; star++) pattern += "*a";
  pattern = pattern.padEnd(GLOB_LIMITS.length - 1, "a");
  return pattern + String.fromCharCode(0x62 + (n % 24));
}

function steps(match: (path: string, stats: GlobStats) => boolean, path: string): number {
  const stats: GlobStats = { steps: 0 };
  expect(match(path, stats)).toBe(false);
  return stats.steps;
}

describe("bounded cost of brace alternatives", () => {
  const name = "a".repeat(4096);

  it("a pattern's 64 alternatives cost what one does", () => {
    const one = steps(compileGlobs([limitPattern(0, false)]), name);
    const many = steps(compileGlobs([limitPattern(0, true)]), name);
    expect(checkGlob(limitPattern(0, true))).toMatchObject({ ok: true });
    // Trying each alternative in turn costs 64 times one; one automaton for all of them, about one.
    expect(many).toBeLessThanOrEqual(2 * one);
  });

  it("100 such patterns read a 4,096-character name in work linear in it", () => {
    const patterns = (alternatives: boolean) =>
      Array.from({ length: 100 }, (_, n) => limitPattern(n, alternatives));
    const plain = compileGlobs(patterns(false));
    const braces = compileGlobs(patterns(true));
    expect(steps(braces, name)).toBeLessThanOrEqual(2 * steps(plain, name));
    // Doubling the name at most doubles the work, once the sets of alive states repeat.
    const fresh = () => compileGlobs(patterns(true));
    const [short, long] = [name, name + name].map((path) => steps(fresh(), path)) as [number, number];
    expect(long).toBeLessThanOrEqual(2 * short);
    // A name the automaton has read before costs one step per character.
    expect(steps(braces, name)).toBeLessThanOrEqual(name.length + 1);
  });
});
