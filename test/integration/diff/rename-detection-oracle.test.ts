// Rename detection against native `git diff -M` as the oracle, on generated pull requests: files
// renamed with small and large edits, edits that land near the 50 % threshold, one source that
// several new files resemble (and the reverse), moves that keep the base name, identical copies,
// CRLF, missing final newlines, binary and empty files, mode changes and symlinks. Each case is a
// pair of commits built with native git; Loupe must list the same pairs with the same
// similarity, and print the same diff text, byte for byte.

import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { changesOf } from "../../../src/diff/changes.ts";
import { detectRenames } from "../../../src/diff/detect-renames.ts";
import { createToolRegistry } from "../../../src/tools/registry.ts";
import { openLocalRepository } from "../../../src/workspace/open-local.ts";
import { diffSnapshots } from "../../../src/workspace/tree-diff.ts";
import { createRepo, type FixtureRepo, type ImportedFile, importHistory } from "../../support/git-fixture.ts";
import { seededRandom } from "../../support/seeded-random.ts";

type Tree = Record<string, string | ImportedFile>;
interface Case {
  readonly base: Tree;
  readonly head: Tree;
}

const WORDS = ["alpha", "beta", "gamma", "delta", "return", "const", "value", "index", "}", "{", "if (x)"];

function generator(seed: number) {
  const random = seededRandom(seed);
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(items: readonly T[]) => items[int(items.length)]!;
  let serial = 0;
  const line = () => {
    serial += 1;
    // Mostly short lines, some over 64 bytes (git hashes those in 64-byte spans).
    const words = Array.from({ length: 1 + int(random() < 0.15 ? 20 : 5) }, () => pick(WORDS));
    return `${words.join(" ")} ${seed}.${serial}`;
  };
  const document = (lines: number) => Array.from({ length: lines }, line);
  /** Replaces, deletes or inserts about `fraction` of the lines. */
  const edit = (lines: readonly string[], fraction: number) => {
    const out = [...lines];
    for (let n = Math.max(1, Math.round(lines.length * fraction)); n > 0; n -= 1) {
      const at = int(out.length);
      const roll = random();
      if (roll < 0.5) out[at] = line();
      else if (roll < 0.75) out.splice(at, 1);
      else out.splice(at, 0, line());
    }
    return out;
  };
  const text = (lines: readonly string[]) => lines.map((l) => `${l}\n`).join("");
  const dir = () => pick(["", "src/", "lib/", "src/deep/", "docs/"]);
  const name = () =>
    `${pick(["util", "main", "widget", "parser", "index"])}${int(6)}.${pick(["ts", "c", "md"])}`;
  return { random, int, pick, document, edit, text, dir, name, line };
}

function randomCase(seed: number): Case {
  const g = generator(seed);
  const base: Tree = { "keep.txt": "kept\n" };
  const head: Tree = { "keep.txt": "kept\n" };
  const groups = 2 + g.int(4);
  for (let group = 0; group < groups; group += 1) {
    const from = `${g.dir()}g${group}-${g.name()}`;
    const to = `${g.dir()}n${group}-${g.name()}`;
    const lines = g.document(4 + g.int(40));
    switch (g.pick(["small", "large", "near", "near", "fanout", "fanin", "basename", "copies", "odd"])) {
      case "small":
        base[from] = g.text(lines);
        head[to] = g.text(g.edit(lines, 0.05));
        break;
      case "large":
        base[from] = g.text(lines);
        head[to] = g.text(g.edit(lines, 0.3 + g.random() * 0.5));
        break;
      case "near":
        // About half the content replaced: the score falls either side of 50 %.
        base[from] = g.text(lines);
        head[to] = g.text(g.edit(lines, 0.3 + g.random() * 0.25));
        break;
      case "fanout":
        // Several new files resemble one deleted file, to different degrees.
        base[from] = g.text(lines);
        for (let k = 0; k < 2 + g.int(3); k += 1)
          head[`${to}.${k}`] = g.text(g.edit(lines, g.random() * 0.5));
        break;
      case "fanin":
        // Several deleted files resemble one new file.
        for (let k = 0; k < 2 + g.int(3); k += 1)
          base[`${from}.${k}`] = g.text(g.edit(lines, g.random() * 0.5));
        head[to] = g.text(lines);
        break;
      case "basename": {
        // The same name in a new directory, and a closer match under another name.
        const file = g.name();
        base[`old/${group}/${file}`] = g.text(lines);
        head[`new/${group}/${file}`] = g.text(g.edit(lines, 0.2 + g.random() * 0.3));
        head[to] = g.text(g.edit(lines, g.random() * 0.15));
        break;
      }
      case "copies":
        // Identical content on both sides, more than once.
        base[from] = g.text(lines);
        base[`${from}.bak`] = g.text(lines);
        head[to] = g.text(lines);
        head[`${g.dir()}same-${group}.txt`] = g.text(lines);
        head[`${to}.2`] = g.text(lines);
        break;
      default: {
        const crlf = (s: string) => s.replace(/\n/g, "\r\n");
        base[from] = crlf(g.text(lines));
        head[to] = crlf(g.text(g.edit(lines, 0.1)));
        base[`${from}.nonl`] = g.text(lines).slice(0, -1);
        head[`${to}.nonl`] = `${g.text(g.edit(lines, 0.1))}tail without newline`;
        // The same last line without a newline on both sides (git does not hash that span).
        base[`${from}.tail`] = g.text(lines).slice(0, -1);
        head[`${to}.tail`] = `${g.text(g.edit(lines.slice(0, -1), 0.1))}${lines.at(-1)}`;
        base[`${from}.bin`] = `\0${g.text(lines)}`;
        head[`${to}.bin`] = `\0${g.text(g.edit(lines, 0.1))}`;
        base[`${from}.empty`] = "";
        head[`${to}.empty`] = "";
        base[`${from}.sh`] = g.text(lines);
        head[`${to}.sh`] = { content: g.text(g.edit(lines, 0.1)), executable: true };
        base[`${from}.link`] = { symlink: "keep.txt" };
        head[`${to}.link`] = { symlink: "keep.txt" };
        head[`${to}.link2`] = { symlink: "elsewhere.txt" };
      }
    }
  }
  return { base, head };
}

let repo: FixtureRepo;
const cases: { seed: number; base: string; head: string }[] = [];
const SEEDS = Array.from({ length: 30 }, (_, seed) => seed);

beforeAll(() => {
  repo = createRepo();
  // Every case's base and head, each commit's tree its files alone, in one `git fast-import`.
  const commits = SEEDS.flatMap((seed) => {
    const generated = randomCase(seed);
    return (["base", "head"] as const).map((side) => ({
      branch: "main",
      message: `${side} ${seed}`,
      replaceTree: true,
      files: generated[side],
    }));
  });
  const ids = importHistory(repo, commits, "main");
  for (const [i, seed] of SEEDS.entries()) cases.push({ seed, base: ids[2 * i]!, head: ids[2 * i + 1]! });
});

afterAll(() => repo?.dispose());

/** `git diff -M --name-status` of a case: read by two tests, run once. */
const gitNameStatus = (() => {
  const known = new Map<string, string[]>();
  return (base: string, head: string): string[] => {
    const rows =
      known.get(`${base}..${head}`) ?? repo.git("diff", "-M", "--name-status", base, head).split("\n");
    known.set(`${base}..${head}`, rows);
    return rows;
  };
})();

const nameStatus = (changes: Awaited<ReturnType<typeof changesOf>>) =>
  changes.map((c) =>
    c.status === "renamed"
      ? `R${String(c.similarity).padStart(3, "0")}\t${c.previousPath}\t${c.path}`
      : `${{ added: "A", deleted: "D", modified: "M", mode_changed: "M", type_changed: "T" }[c.status]}\t${c.path}`,
  );

describe("rename detection against git diff -M", () => {
  it.each(SEEDS)("generated pull request %i: same pairs and similarity", async (seed) => {
    const { base, head } = cases[seed]!;
    const workspace = await openLocalRepository({ dir: repo.dir, base, head });
    try {
      expect(nameStatus(await changesOf(workspace))).toEqual(gitNameStatus(base, head));
    } finally {
      await workspace.dispose();
    }
  });

  it.each(SEEDS)("generated pull request %i: the same diff text", async (seed) => {
    const { base, head } = cases[seed]!;
    const workspace = await openLocalRepository({ dir: repo.dir, base, head });
    try {
      const registry = createToolRegistry(workspace);
      const execution = await registry.execute("inspect_git_diff", { paths: [], max_bytes: 131072 });
      const result = JSON.parse(execution.content);
      expect(result.truncated).toBe(false);
      expect(result.diff).toBe(`${repo.git("diff", "-M", base, head)}\n`);
    } finally {
      await workspace.dispose();
    }
  });

  it("exercises inexact renames on both sides of the threshold, and every kind of pairing", async () => {
    const all: string[] = [];
    for (const { base, head } of cases) all.push(...gitNameStatus(base, head));
    const scores = all.filter((row) => /^R\d{3}/.test(row)).map((row) => Number(row.slice(1, 4)));
    expect(scores.filter((s) => s < 100).length).toBeGreaterThanOrEqual(20);
    expect(scores.filter((s) => s >= 50 && s < 60).length).toBeGreaterThanOrEqual(3);
    // Just under the threshold: git (and Loupe) shows a delete and an add.
    const unpaired = all.filter((row) => /^D\t.*g\d+-/.test(row));
    expect(unpaired.length).toBeGreaterThanOrEqual(5);
  });

  it("pairs real code as git does: a package's CommonJS build moved and replaced by its ES module build", async () => {
    // Real source, not generated: the yaml package ships the same modules twice (dist/ and
    // browser/dist/), similar but not identical, many sharing a file name such as index.js.
    const real = createRepo();
    try {
      const root = path.resolve("node_modules/yaml");
      const files = (dir: string) =>
        (fs.readdirSync(path.join(root, dir), { recursive: true }) as string[])
          .filter((file) => file.endsWith(".js"))
          .sort();
      for (const file of files("dist"))
        real.write(`src/${file}`, fs.readFileSync(path.join(root, "dist", file)));
      real.write("README.md", fs.readFileSync(path.join(root, "README.md")));
      const base = real.commit("CommonJS build");
      real.remove("src");
      for (const file of files("browser/dist")) {
        real.write(`lib/${file}`, fs.readFileSync(path.join(root, "browser/dist", file)));
      }
      real.remove("README.md");
      real.write("docs/README.md", fs.readFileSync(path.join(root, "README.md")));
      const head = real.commit("ES module build");
      const workspace = await openLocalRepository({ dir: real.dir, base, head });
      try {
        const oracle = real.git("diff", "-M", "--name-status", base, head).split("\n");
        expect(nameStatus(await changesOf(workspace))).toEqual(oracle);
        expect(oracle.filter((row) => /^R0[5-9]\d/.test(row)).length).toBeGreaterThanOrEqual(20);
        const registry = createToolRegistry(workspace);
        const execution = await registry.execute("inspect_git_diff", {
          paths: ["lib/compose"],
          max_bytes: 131072,
        });
        const diff = JSON.parse(execution.content).diff;
        expect(diff).toBe(`${real.git("diff", "-M", base, head, "--", "src/compose", "lib/compose")}\n`);
      } finally {
        await workspace.dispose();
      }
    } finally {
      real.dispose();
    }
  });

  it("skips inexact detection past the rename limit, as git -l does, and keeps exact and same-name pairs", async () => {
    const limited = createRepo();
    try {
      const g = generator(99);
      const docs = Array.from({ length: 4 }, () => g.document(20));
      docs.forEach((lines, k) => {
        limited.write(`old/file${k}.txt`, g.text(lines));
      });
      limited.write("old/exact.txt", "exact content\n");
      const base = limited.commit("base");
      for (let k = 0; k < 4; k += 1) limited.remove(`old/file${k}.txt`);
      limited.remove("old/exact.txt");
      // file0 keeps its name (paired before the limit applies); the others are renamed with edits.
      limited.write("new/file0.txt", g.text(g.edit(docs[0]!, 0.05)));
      for (let k = 1; k < 4; k += 1) limited.write(`new/renamed${k}.txt`, g.text(g.edit(docs[k]!, 0.05)));
      limited.write("new/exact-moved.txt", "exact content\n");
      const head = limited.commit("head");
      const workspace = await openLocalRepository({ dir: limited.dir, base, head });
      try {
        const raw = diffSnapshots(workspace.mergeBase, workspace.head);
        for (const limit of [2, 3, 1000]) {
          const ours = await detectRenames(raw, { objects: workspace.objects, renameLimit: limit });
          const oracle = limited.git("diff", "-M", `-l${limit}`, "--name-status", base, head).split("\n");
          expect(nameStatus(ours)).toEqual(oracle);
        }
        const skipped = nameStatus(await detectRenames(raw, { objects: workspace.objects, renameLimit: 2 }));
        expect(skipped.filter((row) => row.startsWith("R")).length).toBe(2);
      } finally {
        await workspace.dispose();
      }
    } finally {
      limited.dispose();
    }
  });
});
