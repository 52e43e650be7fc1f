// findMergeBase against `git merge-base --all` as the oracle, on histories with merges,
// criss-crosses and committer clocks that run backwards: the merge-base Loupe picks is always one
// of git's best common ancestors (the same one whenever git finds a single one).

import { execFileSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { findMergeBase } from "../../../src/workspace/merge-base.ts";
import { createObjectDatabase, type ObjectDatabase } from "../../../src/workspace/objects/object-database.ts";
import { createRepo, type FixtureRepo, gitEnvironment } from "../../support/git-fixture.ts";
import { seededRandom as random } from "../../support/seeded-random.ts";

let repo: FixtureRepo;
let database: ObjectDatabase;
const commits: string[] = [];

function git(args: string[], date: number): string {
  return execFileSync("git", ["-C", repo.dir, "-c", "commit.gpgsign=false", ...args], {
    env: {
      ...gitEnvironment(repo.home),
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.invalid",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.invalid",
      GIT_AUTHOR_DATE: `${date} +0000`,
      GIT_COMMITTER_DATE: `${date} +0000`,
    },
    encoding: "utf8",
  }).trim();
}

beforeAll(() => {
  repo = createRepo();
  const next = random(7);
  const branches = ["main"];
  let clock = 1_700_000_000;
  git(["commit", "--allow-empty", "-q", "-m", "root"], clock);
  commits.push(git(["rev-parse", "HEAD"], clock));
  for (let step = 0; step < 120; step += 1) {
    // Mostly forward, sometimes a clock that runs backwards (rebased or skewed commits).
    clock += next() < 0.15 ? -Math.floor(next() * 5000) : Math.floor(next() * 3000);
    const roll = next();
    const branch = branches[Math.floor(next() * branches.length)]!;
    if (roll < 0.15 && branches.length < 6) {
      const name = `b${branches.length}`;
      git(["checkout", "-q", "-b", name, commits[Math.floor(next() * commits.length)]!], clock);
      branches.push(name);
    } else {
      git(["checkout", "-q", branch], clock);
    }
    if (roll > 0.7 && branches.length > 1) {
      const other = branches[Math.floor(next() * branches.length)]!;
      if (other !== branch)
        git(["merge", "-q", "--no-ff", "-s", "ours", "-m", `merge ${other}`, other], clock);
    }
    git(["commit", "--allow-empty", "-q", "-m", `c${step}`], clock);
    commits.push(git(["rev-parse", "HEAD"], clock));
  }
  // An explicit criss-cross: two merges that each take the other side's tip.
  git(["checkout", "-q", "-b", "x1", commits[40]!], clock + 1);
  git(["commit", "--allow-empty", "-q", "-m", "x1"], clock + 2);
  git(["checkout", "-q", "-b", "x2", commits[40]!], clock + 3);
  git(["commit", "--allow-empty", "-q", "-m", "x2"], clock + 4);
  git(["checkout", "-q", "-b", "x3", "x1"], clock + 5);
  git(["merge", "-q", "--no-ff", "-s", "ours", "-m", "x3", "x2"], clock + 6);
  git(["checkout", "-q", "x2"], clock + 7);
  git(["merge", "-q", "--no-ff", "-s", "ours", "-m", "x4", "x1"], clock + 8);
  commits.push(git(["rev-parse", "x3"], clock), git(["rev-parse", "x2"], clock));
  database = createObjectDatabase({ gitdir: path.join(repo.dir, ".git") });
});

afterAll(() => {
  database.close();
  repo.dispose();
});

function gitMergeBases(a: string, b: string): string[] {
  try {
    return git(["merge-base", "--all", a, b], 0).split("\n").filter(Boolean);
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
