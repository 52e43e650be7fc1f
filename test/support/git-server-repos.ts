// Shapes the bare repositories a test git server exports: publish a fixture repository under the
// server root, point refs (e.g. refs/pull/<n>/head) and create commits no ref can reach.

import { execFileSync } from "node:child_process";
import path from "node:path";
import { type FixtureRepo, gitEnvironment } from "./git-fixture.ts";

function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    "git",
    ["-c", "user.name=Loupe Fixture", "-c", "user.email=fixture@loupe.invalid", ...args],
    { cwd, env: gitEnvironment(path.dirname(cwd)), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  ).replace(/\n$/, "");
}

/** Copies `source` (a fixture or a repository directory) to `<root>/<name>.git`; returns that path. */
export function publishRepository(root: string, name: string, source: FixtureRepo | string): string {
  const bare = path.join(root, `${name.replace(/\.git$/, "")}.git`);
  const from = typeof source === "string" ? source : source.dir;
  git(root, "clone", "--quiet", "--bare", "--no-local", from, bare);
  return bare;
}

/** `git update-ref <ref> <sha>` in a bare repository (e.g. `refs/pull/7/head`). */
export function setRef(bare: string, ref: string, sha: string): void {
  git(bare, "update-ref", ref, sha);
}

export function deleteRef(bare: string, ref: string): void {
  git(bare, "update-ref", "-d", ref);
}

export function setConfig(bare: string, key: string, value: string): void {
  git(bare, "config", key, value);
}

/** Writes a commit object on top of `parent` that no ref reaches; returns its id. */
export function createDanglingCommit(bare: string, parent: string, message = "dangling"): string {
  return git(bare, "commit-tree", `${parent}^{tree}`, "-p", parent, "-m", message);
}
