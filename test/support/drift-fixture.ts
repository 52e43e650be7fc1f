// The drift guard's repository, built in about a second with `git fast-import`: a code base of
// generated source files (seeded, so every run builds the same bytes), a main branch that moves
// on, and a pull request off the first commit with every kind of change the tools meet — edits
// in many files, renames with and without edits, deletes and adds. Bare and repacked into one
// pack, as a git server holds it.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gitEnvironment } from "./git-fixture.ts";
import { seededRandom } from "./seeded-random.ts";

export interface DriftFixture {
  /** The directory holding `repo.git` (a git server's root). */
  readonly root: string;
  readonly bare: string;
  readonly home: string;
  readonly head: string;
  readonly mergeBase: string;
  readonly files: number;
  dispose(): void;
}

const WORDS = (
  "const let return function export import from await async if else for while of in new this " +
  "value result error options state index count items next previous node tree entry path size " +
  "read write open close parse format render match search update create remove cache limit"
).split(" ");

function sourceFile(random: () => number, lines: number): string {
  const out: string[] = [];
  let depth = 0;
  for (let line = 0; line < lines; line += 1) {
    const words = 3 + Math.floor(random() * 8);
    const parts: string[] = [];
    for (let w = 0; w < words; w += 1) parts.push(WORDS[Math.floor(random() * WORDS.length)]!);
    if (random() < 0.15 && depth < 4) {
      out.push(`${"  ".repeat(depth)}${parts.join(" ")} {`);
      depth += 1;
    } else if (random() < 0.15 && depth > 0) {
      depth -= 1;
      out.push(`${"  ".repeat(depth)}}`);
    } else {
      out.push(`${"  ".repeat(depth)}${parts.join(" ")}(${Math.floor(random() * 1000)});`);
    }
  }
  return `${out.join("\n")}\n`;
}

function editFile(random: () => number, text: string): string {
  const lines = text.split("\n");
  for (let edit = 0; edit < 3; edit += 1) {
    const at = Math.floor(random() * (lines.length - 1));
    lines.splice(
      at,
      random() < 0.5 ? 1 : 0,
      `  changed ${edit} ${WORDS[Math.floor(random() * WORDS.length)]}();`,
    );
  }
  return lines.join("\n");
}

/** A fast-import stream's commit listing its whole tree (`deleteall` first), each file a blob mark. */
function commit(
  ref: string,
  mark: number,
  from: number | undefined,
  files: Map<string, number>,
  message: string,
): string {
  const parts = [
    `commit ${ref}`,
    `mark :${mark}`,
    "committer Loupe Drift <drift@loupe.invalid> 1700000000 +0000",
  ];
  parts.push(`data ${Buffer.byteLength(message)}`, message);
  if (from !== undefined) parts.push(`from :${from}`);
  parts.push("deleteall");
  for (const [name, blob] of files) parts.push(`M 100644 :${blob} ${name}`);
  return `${parts.join("\n")}\n`;
}

/** Each distinct content once, as a blob with a mark; the trees name the marks. */
function blobMarks(trees: readonly Map<string, string>[]): { stream: string; marked: Map<string, number>[] } {
  const byContent = new Map<string, number>();
  const blobs: string[] = [];
  const marked = trees.map(
    (tree) =>
      new Map(
        [...tree].map(([name, content]) => {
          let mark = byContent.get(content);
          if (mark === undefined) {
            mark = 100 + byContent.size;
            byContent.set(content, mark);
            blobs.push(`blob\nmark :${mark}\ndata ${Buffer.byteLength(content)}\n${content}\n`);
          }
          return [name, mark];
        }),
      ),
  );
  return { stream: blobs.join(""), marked };
}

export function buildDriftFixture(
  options: { files?: number; seed?: number; tmpRoot?: string } = {},
): DriftFixture {
  const count = options.files ?? 1500;
  const random = seededRandom(options.seed ?? 43);
  const root = fs.mkdtempSync(path.join(options.tmpRoot ?? os.tmpdir(), "loupe-drift-"));
  const home = path.join(root, "home");
  const bare = path.join(root, "repo.git");
  fs.mkdirSync(home);
  const env = gitEnvironment(home);
  const git = (...args: string[]): string =>
    execFileSync("git", args, { cwd: bare, env, encoding: "utf8", maxBuffer: 1 << 28 }).trim();
  execFileSync("git", ["init", "--quiet", "--bare", "--initial-branch=main", bare], { env });

  const base = new Map<string, string>();
  for (let i = 0; i < count; i += 1) {
    base.set(`src/${`area${i % 30}`}/module${i}.ts`, sourceFile(random, 40 + Math.floor(random() * 120)));
  }
  const main = new Map(base);
  main.set("README.md", "main moves on\n");
  const head = new Map(base);
  const names = [...base.keys()];
  for (let i = 0; i < count; i += 1) {
    const name = names[i]!;
    const pick = i % 20;
    if (pick < 3)
      head.set(name, editFile(random, base.get(name)!)); // 15 % edited
    else if (pick === 3) {
      head.delete(name); // 5 % renamed, half of them edited too
      head.set(
        name.replace("/module", "/moved/module"),
        i % 40 < 20 ? base.get(name)! : editFile(random, base.get(name)!),
      );
    } else if (pick === 4) head.delete(name); // 5 % deleted
  }
  for (let i = 0; i < count / 20; i += 1) head.set(`src/added/new${i}.ts`, sourceFile(random, 60));

  const blobs = blobMarks([base, main, head]);
  const [baseMarks, mainMarks, headMarks] = blobs.marked as [
    Map<string, number>,
    Map<string, number>,
    Map<string, number>,
  ];
  const stream =
    blobs.stream +
    commit("refs/heads/main", 1, undefined, baseMarks, "base") +
    commit("refs/heads/main", 2, 1, mainMarks, "main moves on") +
    commit("refs/pull/1/head", 3, 1, headMarks, "pull request");
  execFileSync("git", ["fast-import", "--quiet"], { cwd: bare, env, input: stream, maxBuffer: 1 << 28 });
  git("repack", "-a", "-d", "-q");
  git("prune-packed");
  const headId = git("rev-parse", "refs/pull/1/head");
  return {
    root,
    bare,
    home,
    head: headId,
    mergeBase: git("merge-base", "refs/heads/main", headId),
    files: head.size,
    dispose: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
