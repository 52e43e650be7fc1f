// A tree bomb: a handful of real git objects (written by `git hash-object` and `git mktree`) whose
// trees list the next tree `fan` times over, `levels` deep, so that a commit names fan^levels paths
// (10^9 by default) while the repository holds about twenty objects. Both commits carry the bomb
// under `bomb/` and the pull request changes one small file beside it: the host lists one changed
// file, and the bomb is met only when the trees are read.
//
//   const bomb = createTreeBombRepo();
//   github.addRepository({ owner: "octo", repo: "bomb", source: bomb.repo });

import { execFileSync } from "node:child_process";
import { createRepo, type FixtureRepo, gitEnvironment } from "./git-fixture.ts";

export interface TreeBombRepo {
  readonly repo: FixtureRepo;
  readonly baseSha: string;
  readonly headSha: string;
  /** The branch of the pull request's head (`main` is the base). */
  readonly headRef: string;
  /** Paths a commit names: fan^levels under `bomb/`, and two beside it. */
  readonly paths: number;
}

export function createTreeBombRepo(options: { fan?: number; levels?: number } = {}): TreeBombRepo {
  const fan = options.fan ?? 10;
  const levels = options.levels ?? 9;
  const repo = createRepo({ bare: true });
  const input = (args: string[], text: string) =>
    execFileSync("git", args, { cwd: repo.dir, env: gitEnvironment(repo.home), input: text })
      .toString("utf8")
      .trim();
  const blob = (text: string) => input(["hash-object", "-w", "--stdin"], text);
  const tree = (lines: readonly string[]) => input(["mktree"], `${lines.join("\n")}\n`);
  const names = Array.from({ length: fan }, (_, n) => `${n}`);
  let level = tree(names.map((name) => `100644 blob ${blob("x\n")}\tf${name}`));
  for (let depth = 1; depth < levels; depth += 1) {
    const below = level;
    level = tree(names.map((name) => `040000 tree ${below}\td${name}`));
  }
  const values = (v10: number) =>
    Array.from({ length: 30 }, (_, i) => `export const v${i + 1} = ${i === 9 ? v10 : i + 1};\n`).join("");
  const commit = (v10: number, parent: string | null, message: string) => {
    const src = tree([`100644 blob ${blob(values(v10))}\tvalues.ts`]);
    const root = tree([
      `100644 blob ${blob("# Bomb\n")}\tREADME.md`,
      `040000 tree ${level}\tbomb`,
      `040000 tree ${src}\tsrc`,
    ]);
    return repo.git("commit-tree", root, ...(parent === null ? [] : ["-p", parent]), "-m", message);
  };
  const baseSha = commit(10, null, "a tree bomb");
  const headSha = commit(100, baseSha, "v10 is 100");
  repo.git("update-ref", "refs/heads/main", baseSha);
  repo.git("update-ref", "refs/heads/change", headSha);
  return { repo, baseSha, headSha, headRef: "change", paths: fan ** levels + 2 };
}
