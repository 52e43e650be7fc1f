// The action's refusal to run beside the pull request's code: a checkout of the head (detached, or
// on a branch), of GitHub's merge commit of it, or of the head's tree under another commit id, in
// GITHUB_WORKSPACE or RUNNER_TEMP at any depth up to the bound (a linked worktree included), is
// found; a checkout of the base, an empty workspace, a folder that is no repository, or a checkout
// below the bound is not.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type GuardRoots, headCheckout as guard, MAX_DEPTH } from "../../../src/action/workspace-guard.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";

let repo: FixtureRepo;
let head: string;
let headTree: string;
let merge: string;

const inWorkspace = (dir: string | null): GuardRoots => ({ workspace: dir, temp: null });
/** As the action asks: the head's commit and its tree (from GitHub). */
const headCheckout = (roots: string | null | GuardRoots, sha: string, tree: string | null = headTree) =>
  guard(typeof roots === "object" && roots !== null ? roots : inWorkspace(roots), { sha, tree });

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "loupe-guard-"));
}

beforeAll(() => {
  repo = createRepo();
  repo.write("a.txt", "a\n");
  repo.commit("base");
  repo.branch("feature");
  repo.write("b.txt", "b\n");
  head = repo.commit("head");
  headTree = repo.revParse(`${head}^{tree}`);
  repo.checkout("main");
  repo.write("c.txt", "c\n");
  const base = repo.commit("main moves on");
  // What actions/checkout leaves on a pull_request event: refs/pull/N/merge, detached.
  repo.checkout(base);
  repo.git("merge", "--no-ff", "--quiet", "-m", "Merge head into base", "feature");
  merge = repo.revParse("HEAD");
  repo.checkout("main");
});

afterAll(() => repo?.dispose());

describe("a checkout of the pull request in the workspace", () => {
  it("is found at the head, on a branch or detached", async () => {
    repo.checkout("feature");
    expect(await headCheckout(repo.dir, head)).toMatch(
      /^GITHUB_WORKSPACE holds a checkout of the pull request's head/,
    );
    repo.checkout(head);
    expect(await headCheckout(repo.dir, head)).toMatch(/pull request's head \(/);
  });

  it("is found at GitHub's merge commit of the head", async () => {
    repo.checkout(merge);
    expect(await headCheckout(repo.dir, head)).toMatch(/pull request's merge commit/);
  });

  it("is found one folder down", async () => {
    repo.checkout("feature");
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-guard-"));
    try {
      fs.symlinkSync(repo.dir, path.join(workspace, "pr"));
      fs.mkdirSync(path.join(workspace, "other"));
      expect(await headCheckout(workspace, head)).toMatch(/^GITHUB_WORKSPACE\/pr holds a checkout/);
    } finally {
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });

  it("is not found beside the base, an empty workspace or none", async () => {
    repo.checkout("main");
    expect(await headCheckout(repo.dir, head)).toBeNull();
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-guard-"));
    try {
      expect(await headCheckout(empty, head)).toBeNull();
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
    expect(await headCheckout(null, head)).toBeNull();
  });
});

describe("the head's files anywhere a step may have put them", () => {
  it("is found two folders down, and in RUNNER_TEMP outside the workspace", async () => {
    repo.checkout("feature");
    const workspace = tempDir();
    const temp = tempDir();
    try {
      fs.mkdirSync(path.join(workspace, "a", "b"), { recursive: true });
      fs.symlinkSync(repo.dir, path.join(workspace, "a", "b", "pr"));
      expect(await headCheckout(workspace, head)).toMatch(/^GITHUB_WORKSPACE\/a\/b\/pr holds a checkout/);
      fs.rmSync(path.join(workspace, "a"), { recursive: true });
      fs.symlinkSync(repo.dir, path.join(temp, "pr"));
      expect(await headCheckout({ workspace, temp }, head)).toMatch(/^RUNNER_TEMP\/pr holds a checkout/);
    } finally {
      fs.rmSync(workspace, { recursive: true, force: true });
      fs.rmSync(temp, { recursive: true, force: true });
    }
  });

  it("is found as the head's tree under another commit id, and in a linked worktree", async () => {
    repo.checkout("main");
    // The head's files committed again: another commit id, the same tree.
    const again = repo.git("commit-tree", headTree, "-m", "the head's files, recommitted").trim();
    const worktree = path.join(tempDir(), "wt");
    try {
      repo.git("worktree", "add", "--quiet", "--detach", worktree, again);
      expect(await headCheckout(path.dirname(worktree), head)).toMatch(
        /^GITHUB_WORKSPACE\/wt holds a checkout of the pull request's files \(the head's tree under commit/,
      );
      // Without GitHub's word on the tree, the repository's own copy of the head commit tells it.
      expect(await headCheckout(path.dirname(worktree), head, null)).toMatch(/the head's tree under commit/);
    } finally {
      repo.git("worktree", "remove", "--force", worktree);
      fs.rmSync(path.dirname(worktree), { recursive: true, force: true });
    }
  });

  it(`is not looked for more than ${MAX_DEPTH} folders down (the bound the docs name)`, async () => {
    repo.checkout("feature");
    const workspace = tempDir();
    try {
      const deep = path.join(workspace, ...Array.from({ length: MAX_DEPTH }, (_, i) => `d${i}`));
      fs.mkdirSync(deep, { recursive: true });
      fs.symlinkSync(repo.dir, path.join(deep, "pr"));
      expect(await headCheckout(workspace, head)).toBeNull();
      fs.symlinkSync(repo.dir, path.join(path.dirname(deep), "pr"));
      expect(await headCheckout(workspace, head)).not.toBeNull();
    } finally {
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });
});
