import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { openLocalRepository } from "../../../src/workspace/open-local.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { loupeRejection } from "../../support/loupe-rejection.ts";

// main:    c1 ── c2 ── c4            (base tip)
// feature:        └─── c3 ── c5     (head); merge-base = c2
let repo: FixtureRepo;
let bare: FixtureRepo;
const sha: Record<string, string> = {};

function lsTree(fixture: FixtureRepo, commit: string): Array<{ path: string; oid: string; mode: string }> {
  return fixture
    .git("ls-tree", "-r", "--full-tree", commit)
    .split("\n")
    .map((line) => {
      const [meta, file] = line.split("\t") as [string, string];
      const [mode, , oid] = meta.split(" ") as [string, string, string];
      return { path: file, oid, mode };
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

beforeAll(() => {
  repo = createRepo();
  repo.write("README.md", "# demo\n");
  repo.write("src/a.ts", "export const a = 1;\n");
  sha.c1 = repo.commit("c1");
  repo.write("src/b.ts", "export const b = 2;\n");
  sha.c2 = repo.commit("c2");
  repo.branch("feature");
  repo.write("src/a.ts", "export const a = 10;\n");
  repo.write("bin/run.sh", "#!/bin/sh\necho hi\n");
  repo.chmod("bin/run.sh", 0o755);
  sha.c3 = repo.commit("c3");
  repo.remove("src/b.ts");
  repo.write("img/logo.bin", Buffer.from([0, 1, 2, 255]));
  sha.c5 = repo.commit("c5");
  repo.tag("v-head", { annotated: true });
  repo.checkout("main");
  repo.write("CHANGELOG.md", "main moved\n");
  sha.c4 = repo.commit("c4");
  repo.git("checkout", "--quiet", "--orphan", "unrelated");
  repo.write("other.txt", "no shared history\n");
  sha.orphan = repo.commit("orphan");
  repo.checkout("main");

  bare = createRepo({ bare: true });
  bare.git("fetch", "--quiet", repo.dir, "+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*");
});

afterAll(() => {
  repo.dispose();
  bare.dispose();
});

describe("openLocalRepository", () => {
  it("resolves branches, computes the merge-base and reads both snapshots like git ls-tree", async () => {
    const workspace = await openLocalRepository({ dir: repo.dir, base: "main", head: "feature" });
    expect(workspace.head.commit).toBe(sha.c5);
    expect(workspace.mergeBase.commit).toBe(sha.c2);
    const modes: Record<string, string> = { file: "100644", executable: "100755" };
    for (const [snapshot, commit] of [
      [workspace.head, sha.c5],
      [workspace.mergeBase, sha.c2],
    ] as const) {
      expect(snapshot.entries.map((e) => ({ path: e.path, oid: e.oid, mode: modes[e.mode] }))).toEqual(
        lsTree(repo, commit!),
      );
    }
    const logo = workspace.head.byPath.get("img/logo.bin")!;
    expect(Buffer.from(await workspace.objects.readBlob(logo.oid))).toEqual(Buffer.from([0, 1, 2, 255]));
    expect(workspace.head.byPath.get("bin/run.sh")?.mode).toBe("executable");
    await workspace.dispose();
    expect(fs.existsSync(path.join(repo.dir, ".git", "HEAD"))).toBe(true);
  });

  it("accepts full and abbreviated ids, HEAD, ~N / ^N suffixes and peels annotated tags", async () => {
    const byTag = await openLocalRepository({ dir: repo.dir, base: "main~1", head: "v-head" });
    expect([byTag.mergeBase.commit, byTag.head.commit]).toEqual([sha.c2, sha.c5]);
    const byIds = await openLocalRepository({ dir: repo.dir, base: sha.c4!.slice(0, 7), head: "feature^" });
    expect([byIds.mergeBase.commit, byIds.head.commit]).toEqual([sha.c2, sha.c3]);
    const byHead = await openLocalRepository({ dir: repo.dir, base: `${sha.c1}`, head: "HEAD" });
    expect([byHead.mergeBase.commit, byHead.head.commit]).toEqual([sha.c1, sha.c4]);
  });

  it("reads one snapshot when head is the merge-base (a tool run on one commit)", async () => {
    const one = await openLocalRepository({ dir: repo.dir, base: "feature", head: "feature" });
    expect(one.mergeBase).toBe(one.head);
    expect(one.head.entries).toEqual(
      lsTree(repo, sha.c5!).map(({ path }) => expect.objectContaining({ path })),
    );
    await one.dispose();
  });

  it("opens a bare repository and a subdirectory of a work tree", async () => {
    const fromBare = await openLocalRepository({ dir: bare.dir, base: "main", head: "refs/tags/v-head" });
    expect([fromBare.mergeBase.commit, fromBare.head.commit]).toEqual([sha.c2, sha.c5]);
    const fromSubdir = await openLocalRepository({
      dir: path.join(repo.dir, "src"),
      base: "main",
      head: "feature",
    });
    expect(fromSubdir.head.commit).toBe(sha.c5);
  });

  it("opens a linked worktree, whose HEAD is its own", async () => {
    const worktree = path.join(repo.home, "wt");
    repo.git("worktree", "add", "--quiet", worktree, "feature");
    try {
      const workspace = await openLocalRepository({ dir: worktree, base: "main", head: "HEAD" });
      expect([workspace.mergeBase.commit, workspace.head.commit]).toEqual([sha.c2, sha.c5]);
    } finally {
      repo.git("worktree", "remove", "--force", worktree);
    }
  });

  it("refuses a directory that is not a git repository, without naming the path", async () => {
    const error = await loupeRejection(
      openLocalRepository({ dir: repo.home, base: "main", head: "feature" }),
    );
    expect(error.code).toBe("git_repository_invalid");
    expect(error.message).not.toContain(repo.home);
    const missing = await loupeRejection(
      openLocalRepository({ dir: path.join(repo.home, "nope"), base: "a", head: "b" }),
    );
    expect(missing.code).toBe("git_repository_invalid");
  });

  it.each([
    ["no-such-branch", "no such ref or object"],
    ["feature~99", "no such parent"],
    ["0000000000000000000000000000000000000000", "not in the repository"],
    ["main^{tree}", "unsupported revision syntax"],
    ["", "not a valid revision"],
  ])("names an unknown head revision %j", async (revision, why) => {
    const error = await loupeRejection(openLocalRepository({ dir: repo.dir, base: "main", head: revision }));
    expect(error.code).toBe("git_commit_unreachable");
    expect(error.message).toContain(JSON.stringify(revision));
    expect(error.message).toContain(why);
  });

  it("refuses a revision that names a tree, not a commit", async () => {
    const tree = repo.git("rev-parse", "main^{tree}");
    const error = await loupeRejection(openLocalRepository({ dir: repo.dir, base: tree, head: "feature" }));
    expect(error.code).toBe("git_commit_unreachable");
    expect(error.message).toContain("names a tree");
  });

  it("says when base and head share no history", async () => {
    const error = await loupeRejection(
      openLocalRepository({ dir: repo.dir, base: "unrelated", head: "feature" }),
    );
    expect(error.code).toBe("git_commit_unreachable");
    expect(error.message).toContain("no merge-base");
  });
});
