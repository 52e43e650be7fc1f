// Where a run of added or deleted lines lands when it could sit in several places: the same
// place `git diff` (with its default indent heuristic) puts it, so the model reads the hunks a
// reviewer sees on GitHub. git itself is the oracle: `git diff --no-index` on the same two texts.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { formatHunks } from "../../../src/tools/hunks.ts";

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-line-diff-oracle-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** git's hunks for old → new, from the first `@@` line on. */
function gitHunks(
  oldText: string,
  newText: string,
  heuristic: "--indent-heuristic" | "--no-indent-heuristic",
) {
  fs.writeFileSync(path.join(dir, "old"), oldText);
  fs.writeFileSync(path.join(dir, "new"), newText);
  const run = spawnSync("git", ["diff", "--no-index", "--no-color", "-U3", heuristic, "old", "new"], {
    cwd: dir,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: dir,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
    },
  });
  if (run.status !== 1) throw new Error(`git diff --no-index exited ${run.status}: ${run.stderr}`);
  const lines = run.stdout.replace(/\n$/, "").split("\n");
  return lines.slice(lines.findIndex((line) => line.startsWith("@@")));
}

const loupeHunks = (oldText: string, newText: string) =>
  formatHunks(Buffer.from(oldText), Buffer.from(newText));

const block = (name: string, body: string[]) => [
  `function ${name}() {`,
  ...body.map((l) => `  ${l}`),
  "}",
  "",
];
const text = (lines: string[]) => `${lines.join("\n")}\n`;

const cases: [string, string, string][] = [
  [
    "a function inserted between two others",
    text([...block("a", ["return 1;"]), ...block("c", ["return 3;"])]),
    text([...block("a", ["return 1;"]), ...block("b", ["return 2;"]), ...block("c", ["return 3;"])]),
  ],
  [
    "a doc comment inserted before another one",
    text(["import x;", "", "/**", " * One.", " */", "", "/**", " * Two.", " */", "f();"]),
    text([
      "import x;",
      "",
      "/**",
      " * One.",
      " */",
      "",
      "/**",
      " * New.",
      " */",
      "",
      "/**",
      " * Two.",
      " */",
      "f();",
    ]),
  ],
  [
    "an if block inserted inside a function",
    text(["function f() {", "  a();", "", "  if (x) {", "    b();", "  }", "", "  c();", "}"]),
    text([
      "function f() {",
      "  a();",
      "",
      "  if (x) {",
      "    b();",
      "  }",
      "",
      "  if (y) {",
      "    b();",
      "  }",
      "",
      "  c();",
      "}",
    ]),
  ],
  [
    "a tab-indented block deleted",
    text(["int f() {", "\tif (a) {", "\t\tg();", "\t}", "\tif (a) {", "\t\tg();", "\t}", "\treturn 0;", "}"]),
    text(["int f() {", "\tif (a) {", "\t\tg();", "\t}", "\treturn 0;", "}"]),
  ],
];

// Source-like files of functions drawn from a few bodies (so runs can slide), with whole
// functions and single lines inserted and deleted; a fixed generator, so a failure replays.
function randomCase(seed: number): [string, string] {
  let state = seed + 1;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const bodies = [["return 1;"], ["if (x) {", "  y();", "}"], ["a();", "", "b();"], ["return 1;", ""]];
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]!;
  const functions = Array.from({ length: 12 + Math.floor(next() * 12) }, () =>
    block(pick(["f", "f", "g"]), pick(bodies)),
  );
  const edited = functions.map((lines) => [...lines]);
  for (let edits = 1 + Math.floor(next() * 4); edits > 0; edits -= 1) {
    const at = Math.floor(next() * edited.length);
    const roll = next();
    if (roll < 0.4) edited.splice(at, 0, block(pick(["f", "f", "g"]), pick(bodies)));
    else if (roll < 0.7) edited.splice(at, 1);
    else edited[at]?.splice(1, 0, `  ${pick(["log();", "", "return 1;"])}`);
  }
  return [text(functions.flat()), text(edited.flat())];
}

const randomCases = Array.from({ length: 40 }, (_, seed) => randomCase(seed)).filter(([a, b]) => a !== b);

describe("runs of changes placed like git diff", () => {
  it.each(cases)("%s", (_what, oldText, newText) => {
    expect(loupeHunks(oldText, newText)).toEqual(gitHunks(oldText, newText, "--indent-heuristic"));
  });

  it("uses cases where the heuristic changes git's own placement (so they test it)", () => {
    const all = [...cases.map(([, a, b]): [string, string] => [a, b]), ...randomCases];
    const differing = all.filter(
      ([oldText, newText]) =>
        JSON.stringify(gitHunks(oldText, newText, "--indent-heuristic")) !==
        JSON.stringify(gitHunks(oldText, newText, "--no-indent-heuristic")),
    );
    expect(differing.length).toBeGreaterThanOrEqual(15);
  });

  it.each(randomCases.map(([oldText, newText], seed): [number, string, string] => [seed, oldText, newText]))(
    "random source-like edit %i",
    (_seed, oldText, newText) => {
      expect(loupeHunks(oldText, newText)).toEqual(gitHunks(oldText, newText, "--indent-heuristic"));
    },
  );
});
