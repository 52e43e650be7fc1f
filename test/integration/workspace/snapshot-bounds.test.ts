// The walk of a commit's tree is bounded (workspace/snapshot-bounds.ts): past its paths or its
// depth it stops with git_tree_too_large, and the review's signal stops it where it is — on real
// git objects, a tree bomb and a deep path written by native git.

import { describe, expect, it } from "@jest/globals";
import { isLoupeError } from "../../../src/domain/errors.ts";
import { openLocalRepository } from "../../../src/workspace/open-local.ts";
import { createObjectStore, readCommitSnapshot } from "../../../src/workspace/snapshot.ts";
import { SNAPSHOT_MAX_DEPTH } from "../../../src/workspace/snapshot-bounds.ts";
import { createRepo, importHistory } from "../../support/git-fixture.ts";
import { createTreeBombRepo } from "../../support/tree-bomb-repo.ts";

const limits = (maxPaths: number, maxDepth: number) => ({ maxPaths, maxDepth });

async function failure(read: Promise<unknown>): Promise<unknown> {
  return await read.then(
    () => {
      throw new Error("the read succeeded");
    },
    (error: unknown) => error,
  );
}

describe("the bounded walk of a commit's tree", () => {
  it("reads a small bomb whole within its bounds, and stops one path past them", async () => {
    const bomb = createTreeBombRepo({ fan: 3, levels: 4 });
    try {
      const store = createObjectStore(bomb.repo.dir);
      const whole = await readCommitSnapshot(store, bomb.headSha, { limits: limits(bomb.paths, 10) });
      expect(whole.entries).toHaveLength(bomb.paths);
      expect(whole.byPath.has("bomb/d2/d2/d2/f2")).toBe(true);
      const error = await failure(
        readCommitSnapshot(store, bomb.headSha, { limits: limits(bomb.paths - 1, 10) }),
      );
      expect(isLoupeError(error, "git_tree_too_large")).toBe(true);
      expect((error as Error).message).toBe(
        `the commit ${bomb.headSha} lists more than ${bomb.paths - 1} paths`,
      );
      store.database.close();
    } finally {
      bomb.repo.dispose();
    }
  });

  it("stops a tree nested deeper than its depth bound", async () => {
    const bomb = createTreeBombRepo({ fan: 1, levels: 6 });
    try {
      const store = createObjectStore(bomb.repo.dir);
      // bomb/d0/d0/d0/d0/d0/f0: the leaf tree is 6 directories below the root.
      await expect(
        readCommitSnapshot(store, bomb.headSha, { limits: limits(100, 6) }),
      ).resolves.toBeDefined();
      const error = await failure(readCommitSnapshot(store, bomb.headSha, { limits: limits(100, 5) }));
      expect(isLoupeError(error, "git_tree_too_large")).toBe(true);
      expect((error as Error).message).toContain("nests directories more than 5 deep");
      store.database.close();
    } finally {
      bomb.repo.dispose();
    }
  });

  it("keeps a path 2,000 directories deep under the default bounds", async () => {
    const repo = createRepo();
    try {
      const deep = `${Array.from({ length: 2_000 }, () => "a").join("/")}/file.txt`;
      // Committed by git without a work tree: 2,000 nested directories on disk cost seconds of
      // the file system's time to write, and to remove, and are not what is read.
      const [head] = importHistory(
        repo,
        [{ branch: "main", message: "deep", files: { [deep]: "deep\n" } }],
        null,
      );
      expect(2_000).toBeLessThan(SNAPSHOT_MAX_DEPTH);
      const workspace = await openLocalRepository({ dir: repo.dir, base: head!, head: head! });
      expect(workspace.head.byPath.has(deep)).toBe(true);
      await workspace.dispose();
    } finally {
      repo.dispose();
    }
  }, 60_000);

  it("stops on the review's signal, between slices of the walk", async () => {
    const bomb = createTreeBombRepo({ fan: 10, levels: 6 });
    try {
      const controller = new AbortController();
      const reason = new Error("the review's deadline");
      // Fired from a timer: the walk must give the event loop a turn for it to run at all.
      setTimeout(() => controller.abort(reason), 1);
      const error = await failure(
        openLocalRepository({
          dir: bomb.repo.dir,
          base: bomb.baseSha,
          head: bomb.headSha,
          signal: controller.signal,
        }),
      );
      expect(error).toBe(reason);
    } finally {
      bomb.repo.dispose();
    }
  });
});
