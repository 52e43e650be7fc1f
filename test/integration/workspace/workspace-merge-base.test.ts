// findMergeBase against `git merge-base --all` as the oracle, on histories with merges,
// criss-crosses and committer clocks that run backwards: the merge-base Loupe picks is always one
// of git's best common ancestors (the same one whenever git finds a single one).

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { findMergeBase } from "../../../src/workspace/merge-base.ts";
import { createObjectDatabase, type ObjectDatabase } from "../../../src/workspace/objects/object-database.ts";
import { createRepo, type FixtureRepo, gitEnvironment } from "../../support/git-fixture.ts";
import { seededRandom as random } from "../../support/seeded-random.ts";

let repo: FixtureRepo;
let database: ObjectDatabase;
const commits: string[] = [];

function git(args: string[]): string {
  return execFileSync("git", ["-C", repo.dir, ...args], {
    env: gitEnvironment(repo.home),
    encoding: "utf8",
  }).trim();
}

/**
 * The history as one `git fast-import` stream (one process, where a commit, checkout or merge
 * each cost one): every commit dated by the clock given, the merges as `git merge -s ours` makes
 * them (the first parent's tree, here empty like every commit's). Returns each mark's commit id.
 */
class HistoryStream {
  #stream: string[] = [];
  #marks = 0;

  commit(branch: string, message: string, date: number, parents: readonly number[]): number {
    const mark = ++this.#marks;
    const who = `t <t@example.invalid> ${date} +0000`;
    this.#stream.push(`commit refs/heads/${branch}`, `mark :${mark}`, `author ${who}`, `committer ${who}`);
    // A message ends in a newline, as `git commit -m` writes it.
    this.#stream.push(`data ${Buffer.byteLength(message) + 1}`, message);
    const [first, ...merged] = parents;
    if (first !== undefined) this.#stream.push(`from :${first}`);
    for (const parent of merged) this.#stream.push(`merge :${parent}`);
    this.#stream.push("");
    return mark;
  }

  /** Imports the stream into the repository; the commit id of each mark. */
  import(into: FixtureRepo): Map<number, string> {
    const marks = path.join(into.home, "marks");
    execFileSync("git", ["fast-import", "--quiet", `--export-marks=${marks}`], {
      cwd: into.dir,
      env: gitEnvironment(into.home),
      input: `${this.#stream.join("\n")}\n`,
    });
    return new Map(
      fs
        .readFileSync(marks, "utf8")
        .trim()
        .split("\n")
        .map((line) => {
          const [mark, id] = line.split(" ") as [string, string];
          return [Number(mark.slice(1)), id] as const;
        }),
    );
  }
}

beforeAll(() => {
  repo = createRepo();
  const next = random(7);
  const history = new HistoryStream();
  const tips = new Map<string, number>();
  const marks: number[] = [];
  let clock = 1_700_000_000;
  tips.set("main", history.commit("main", "root", clock, []));
  marks.push(tips.get("main")!);
  for (let step = 0; step < 120; step += 1) {
    // Mostly forward, sometimes a clock that runs backwards (rebased or skewed commits).
    clock += next() < 0.15 ? -Math.floor(next() * 5000) : Math.floor(next() * 3000);
    const roll = next();
    const branches = [...tips.keys()];
    const branch = branches[Math.floor(next() * branches.length)]!;
    let current = branch;
    if (roll < 0.15 && branches.length < 6) {
      current = `b${branches.length}`;
      tips.set(current, marks[Math.floor(next() * marks.length)]!);
    }
    if (roll > 0.7 && branches.length > 1) {
      const other = branches[Math.floor(next() * branches.length)]!;
      if (other !== branch)
        tips.set(
          branch,
          history.commit(branch, `merge ${other}`, clock, [tips.get(branch)!, tips.get(other)!]),
        );
    }
    tips.set(current, history.commit(current, `c${step}`, clock, [tips.get(current)!]));
    marks.push(tips.get(current)!);
  }
  // An explicit criss-cross: two merges that each take the other side's tip.
  const x1 = history.commit("x1", "x1", clock + 2, [marks[40]!]);
  const x2 = history.commit("x2", "x2", clock + 4, [marks[40]!]);
  const x3 = history.commit("x3", "x3", clock + 6, [x1, x2]);
  const x4 = history.commit("x2", "x4", clock + 8, [x2, x1]);
  marks.push(x3, x4);
  const ids = history.import(repo);
  commits.push(...marks.map((mark) => ids.get(mark)!));
  database = createObjectDatabase({ gitdir: path.join(repo.dir, ".git") });
});

afterAll(() => {
  database.close();
  repo.dispose();
});

function gitMergeBases(a: string, b: string): string[] {
  try {
    return git(["merge-base", "--all", a, b]).split("\n").filter(Boolean);
  } catch {
    return []; // no common history
  }
}

describe("findMergeBase vs git merge-base --all", () => {
  it("picks one of git's best common ancestors of a criss-cross", async () => {
    const [x3, x2] = commits.slice(-2) as [string, string];
    const all = gitMergeBases(x3, x2);
    expect(all).toHaveLength(2);
    expect(all).toContain(await findMergeBase({ database }, x3, x2));
  });

  it("agrees with git on 150 random pairs of this history", async () => {
    const next = random(11);
    for (let n = 0; n < 150; n += 1) {
      const a = commits[Math.floor(next() * commits.length)]!;
      const b = commits[Math.floor(next() * commits.length)]!;
      const all = gitMergeBases(a, b);
      const ours = await findMergeBase({ database }, a, b);
      if (all.length === 1) expect(`${a} ${b} → ${ours}`).toBe(`${a} ${b} → ${all[0]}`);
      else expect(all).toContain(ours);
    }
  });
});
