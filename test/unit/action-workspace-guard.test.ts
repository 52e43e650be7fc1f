// The action's refusal to run beside the pull request's code: a checkout of the head (detached, or
// on a branch), or of GitHub's merge commit of it, in GITHUB_WORKSPACE or one folder down, is
// found; a checkout of the base, an empty workspace or a folder that is no repository is not.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { headCheckout } from "../../src/action/workspace-guard.ts";
import { createRepo, type FixtureRepo } from "../support/git-fixture.ts";

let repo: FixtureRepo;
let head: string;
let merge: string;

beforeAll(() => {
  repo = createRepo();
  repo.write("a.txt", "a\n");
  repo.commit("base");
  repo.branch("feature");
  repo.write("b.txt", "b\n");
  head = repo.commit("head");
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
