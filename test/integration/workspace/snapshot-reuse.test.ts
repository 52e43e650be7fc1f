// A merge-base read that reuses the head's snapshot (workspace/snapshot.ts): a directory whose tree
// has the same id at the same path is taken whole from the head instead of being read again, and
// the result is exactly what a read of its own lists — on commits written by native git, a tree
// that lists one name twice, and within the walk's bounds.

import { execFileSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { isLoupeError } from "../../../src/domain/errors.ts";
import { createObjectStore, readCommitSnapshot } from "../../../src/workspace/snapshot.ts";
import type { CommitSnapshot } from "../../../src/workspace/types.ts";
import { createRepo, type FixtureRepo, gitEnvironment } from "../../support/git-fixture.ts";

/** The store of the git directory `gitdir`, recording the id of every object read from it. */
function recordingStore(gitdir: string) {
  const store = createObjectStore(gitdir);
  const read: string[] = [];
  const database = {
    ...store.database,
    readObject: (oid: string) => {
      read.push(oid);
      return store.database.readObject(oid);
    },
  };
  return { store: { ...store, database }, read, close: () => store.database.close() };
}

const listing = (snapshot: CommitSnapshot) =>
  snapshot.entries.map(({ path, mode, oid }) => ({ path, mode, oid }));

let repo: FixtureRepo;
let base: string;
let head: string;

beforeAll(() => {
  repo = createRepo();
  for (const file of ["a/one.ts", "a/two.ts", "a/deep/three.ts", "b/c/four.ts", "b/five.ts", "six.md"])
    repo.write(file, `// ${file}\n`);
  base = repo.commit("base");
  // Only shallow directories change: every directory two deep is the same in both commits.
  repo.write("b/five.ts", "// changed\n");
  repo.write("d/new.ts", "// added\n");
  repo.remove("six.md");
  head = repo.commit("head");
});

afterAll(() => {
  repo?.dispose();
});

describe("a merge-base read reusing the head's snapshot", () => {
  it("lists what its own read lists, and reads none of the directories the head has unchanged", async () => {
    const { store, read, close } = recordingStore(path.join(repo.dir, ".git"));
    try {
      const headSnapshot = await readCommitSnapshot(store, head);
      read.length = 0;
      const reused = await readCommitSnapshot(store, base, { reuse: headSnapshot });
      const readWithReuse = [...read];
      read.length = 0;
      const alone = await readCommitSnapshot(store, base);
      expect(listing(reused)).toEqual(listing(alone));
      expect(listing(alone).map((e) => e.path)).toEqual([
        "a/deep/three.ts",
        "a/one.ts",
        "a/two.ts",
        "b/c/four.ts",
        "b/five.ts",
        "six.md",
      ]);
      // `a`, `a/deep` and `b/c` are the head's trees: never read, their entries the head's own.
      const kept = ["a", "a/deep", "b/c"].map((directory) => repo.revParse(`${base}:${directory}`));
      expect(read).toEqual(expect.arrayContaining(kept));
      for (const tree of kept) expect(readWithReuse).not.toContain(tree);
      expect(readWithReuse).toContain(repo.revParse(`${base}:b`)); // changed: read
      expect(reused.byPath.get("a/deep/three.ts")).toBe(headSnapshot.byPath.get("a/deep/three.ts"));
    } finally {
      close();
    }
  });

  it("counts the entries it takes against the walk's bound on paths", async () => {
    const { store, close } = recordingStore(path.join(repo.dir, ".git"));
    try {
      const headSnapshot = await readCommitSnapshot(store, head);
      const error = await readCommitSnapshot(store, base, {
        reuse: headSnapshot,
        limits: { maxPaths: 5, maxDepth: 100 },
      }).catch((caught: unknown) => caught);
      expect(isLoupeError(error, "git_tree_too_large")).toBe(true);
      expect((error as Error).message).toBe(`the commit ${base} lists more than 5 paths`);
    } finally {
      close();
    }
  });

  it("walks a directory itself when its own depth bound is stricter than the head's", async () => {
    const { store, read, close } = recordingStore(path.join(repo.dir, ".git"));
    try {
      const headSnapshot = await readCommitSnapshot(store, head);
      read.length = 0;
      const error = await readCommitSnapshot(store, base, {
        reuse: headSnapshot,
        limits: { maxPaths: 100, maxDepth: 1 },
      }).catch((caught: unknown) => caught);
      expect(isLoupeError(error, "git_tree_too_large")).toBe(true);
      expect((error as Error).message).toContain("nests directories more than 1 deep");
    } finally {
      close();
    }
  });

  it("takes nothing under a name the head's tree lists twice (git's fsck rejects it; a host may not)", async () => {
    const bare = createRepo({ bare: true });
    try {
      const input = (args: string[], text: string) =>
        execFileSync("git", args, { cwd: bare.dir, env: gitEnvironment(bare.home), input: text })
          .toString("utf8")
          .trim();
      const blob = input(["hash-object", "-w", "--stdin"], "x\n");
      const tree = (lines: readonly string[]) => input(["mktree"], `${lines.join("\n")}\n`);
      const first = tree([`100644 blob ${blob}\tf`]);
      const second = tree([`100644 blob ${blob}\tg`]);
      const commit = (root: string) => bare.git("commit-tree", root, "-m", "tree");
      // The head lists `a` twice, its entries under `a/` coming from both trees; the merge-base
      // lists `a` once, with the second tree's id.
      const headCommit = commit(tree([`040000 tree ${first}\ta`, `040000 tree ${second}\ta`]));
      const baseCommit = commit(tree([`040000 tree ${second}\ta`]));
      const { store, close } = recordingStore(bare.dir);
      try {
        const headSnapshot = await readCommitSnapshot(store, headCommit);
        expect(headSnapshot.entries.map((e) => e.path)).toEqual(["a/f", "a/g"]);
        const reused = await readCommitSnapshot(store, baseCommit, { reuse: headSnapshot });
        expect(listing(reused)).toEqual(listing(await readCommitSnapshot(store, baseCommit)));
        expect(reused.entries.map((e) => e.path)).toEqual(["a/g"]);
      } finally {
        close();
      }
    } finally {
      bare.dispose();
    }
  });
});
