import { describe, expect, it } from "@jest/globals";
import picomatch from "picomatch";
import { checkGlob, compileGlobs, type GlobStats } from "../../../src/config/glob.ts";
import { parseRepoConfig } from "../../../src/config/repo-config.ts";
import { seededRandom } from "../../support/seeded-random.ts";

describe("compileGlobs agrees with picomatch (dot: true) on ordinary patterns", () => {
  it.each([
    ["**", "a/b/.c", true],
    ["src/**", "src/a/b.ts", true],
    ["src/**", "lib/a.ts", false],
    ["**/*.min.js", "a/b/c.min.js", true],
    ["**/*.min.js", "c.min.js", true],
    ["*.ts", "a/b.ts", false],
    ["**/vendor/**", "x/vendor/y/z.go", true],
    ["**/*.{js,ts}", "a/b.ts", true],
    ["src/[a-c]?.ts", "src/bx.ts", true],
    ["**/.github/**", ".github/workflows/ci.yml", true],
  ])("%s on %s", (pattern, path, expected) => {
    expect(compileGlobs([pattern])(path)).toBe(expected);
    expect(picomatch(pattern, { dot: true })(path)).toBe(expected);
  });

  it("on 5,000 generated pattern/path pairs", () => {
    const random = seededRandom(0x91_0b);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    // Dotfiles and `[!…]` are left out: there picomatch departs from POSIX globs (it matches
    // "b" with "[!a-c]"), and Loupe follows POSIX (tested below).
    const names = ["a", "b", "ab", "src", "a.ts", "b.js", "x.min.js", "bx"];
    const parts = [
      "a",
      "b",
      "*",
      "?",
      "**",
      "*.ts",
      "a*",
      "*b*",
      "[ab]",
      "[^a]x",
      "{a,b}",
      "x.{js,ts}",
      "src",
    ];
    const mismatches: string[] = [];
    for (let i = 0; i < 5_000; i++) {
      const pattern = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(parts)).join("/");
      const path = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(names)).join("/");
      // picomatch matches "a/**" against "a" but not "*/**" against "a"; Loupe matches both.
      if (pattern.endsWith("/**") && picomatch(pattern.slice(0, -3), { dot: true })(path)) continue;
      const ours = compileGlobs([pattern])(path);
      if (ours !== picomatch(pattern, { dot: true })(path)) mismatches.push(`${pattern} ${path} ${ours}`);
    }
    expect(mismatches.slice(0, 10)).toEqual([]);
  });
});

it("reads [!…] as a negated class, and matches dotfiles with * and **", () => {
  expect(compileGlobs(["src/[!a-c]?.ts"])("src/bx.ts")).toBe(false);
  expect(compileGlobs(["src/[!a-c]?.ts"])("src/dx.ts")).toBe(true);
  expect(compileGlobs(["*/**"])(".github/x")).toBe(true);
});

describe("bounded cost", () => {
  // Each of these makes a backtracking matcher take time exponential or polynomial of high degree.
  const pathological = [
    `**/${"*a".repeat(15)}*b`,
    `${"**/".repeat(10)}*b`,
    `${"?*".repeat(15)}b`,
    `**/${"a*".repeat(15)}{b,c}`,
  ];
  it.each(pathological)("matches %s in steps linear in the path", (pattern) => {
    const match = compileGlobs([pattern]);
    const counts = [1000, 2000, 4000].map((n) => {
      const stats: GlobStats = { steps: 0 };
      expect(match(`${"a/".repeat(n / 100)}${"a".repeat(n)}`, stats)).toBe(false);
      return stats.steps;
    });
    // Doubling the path at most doubles the work (plus a constant): linear, never worse.
    expect(counts[1]!).toBeLessThanOrEqual(2 * counts[0]! + 1000);
    expect(counts[2]!).toBeLessThanOrEqual(2 * counts[1]! + 1000);
    expect(counts[2]!).toBeLessThanOrEqual(4100 * (pattern.length + 1) * 2);
  });

  it.each([
    ["!src/**", /negation/],
    ["@(a|b)/**", /extglobs/],
    ["**/+(a)", /extglobs/],
    ["{a,{b,c}}", /nest/],
    ["{a,b", /without its \}/],
    ["a}", /without its \{/],
    ["*".repeat(33), /at most 32 wildcards/],
    ["{a,b,c,d}/{a,b,c,d}/{a,b,c,d}/{a,b}", /at most 64 alternatives/],
  ])("refuses %s with a clear reason", (pattern, message) => {
    const check = checkGlob(pattern);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toMatch(message);
    const config = parseRepoConfig(`paths:\n  include: [${JSON.stringify(pattern)}]\n`);
    expect(config.ok).toBe(false);
    if (!config.ok) expect(config.errors[0]!.path).toBe("paths.include.0");
  });
});
