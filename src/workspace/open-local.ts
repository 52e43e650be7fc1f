// Opens a repository already on this machine (a work tree, a bare repository or a linked
// worktree) as a Workspace: resolves `base` and `head`, computes their merge-base and reads both
// snapshots. Nothing is written; `dispose` only closes files, because the repository is the user's.

import fs from "node:fs/promises";
import path from "node:path";
import { LoupeError } from "../domain/errors.ts";
import { findMergeBase } from "./merge-base.ts";
import { type RevisionStore, resolveRevision } from "./resolve-revision.ts";
import {
  createObjectReader,
  createObjectStore,
  type ObjectStoreLocation,
  readCommitSnapshot,
} from "./snapshot.ts";
import type { Workspace } from "./types.ts";

export interface OpenLocalOptions {
  /** The work tree (or any directory inside it), or a bare repository. */
  readonly dir: string;
  readonly base: string;
  readonly head: string;
  /** The review's signal (its deadline, a cancellation): it stops the walk of the two trees. */
  readonly signal?: AbortSignal;
}

export async function openLocalRepository(options: OpenLocalOptions): Promise<Workspace> {
  const location = await locateGitdir(path.resolve(options.dir));
  const store: RevisionStore & ObjectStoreLocation = {
    ...createObjectStore(location.gitdir),
    headOverride: location.headOverride,
  };
  const head = await resolveRevision(store, options.head);
  const base = await resolveRevision(store, options.base);
  const mergeBase = await findMergeBase(store, base, head);
  if (mergeBase === undefined) {
    throw new LoupeError(
      "git_commit_unreachable",
      `no merge-base: ${JSON.stringify(options.base)} and ${JSON.stringify(options.head)} share no history`,
    );
  }
  const walk = { signal: options.signal };
  const headSnapshot = await readCommitSnapshot(store, head, walk);
  // Snapshots are immutable: when head is the merge-base (a tool run on one commit), share it.
  const mergeBaseSnapshot =
    mergeBase === head
      ? headSnapshot
      : await readCommitSnapshot(store, mergeBase, { ...walk, reuse: headSnapshot });
  return {
    head: headSnapshot,
    mergeBase: mergeBaseSnapshot,
    objects: createObjectReader(store),
    // The pack files were opened for reading; the repository itself is left as it was.
    async dispose() {
      store.database.close();
    },
  };
}

export interface GitdirLocation {
  readonly gitdir: string;
  readonly headOverride?: string;
}

const NOT_A_REPOSITORY =
  "the repository directory is not a git repository (no .git, and not a bare repository)";

export async function locateGitdir(start: string): Promise<GitdirLocation> {
  const stat = await fs.stat(start).catch(() => undefined);
  if (stat === undefined || !stat.isDirectory()) {
    throw new LoupeError(
      "git_repository_invalid",
      "the repository directory does not exist or is not a directory",
    );
  }
  for (let dir = start; ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, ".git");
    const dotGitStat = await fs.stat(dotGit).catch(() => undefined);
    if (dotGitStat?.isDirectory() === true && (await isGitdir(dotGit))) return { gitdir: dotGit };
    if (dotGitStat?.isFile() === true) return await followGitFile(dir, dotGit);
    if (dir === start && (await isGitdir(start))) return { gitdir: start };
    if (path.dirname(dir) === dir) throw new LoupeError("git_repository_invalid", NOT_A_REPOSITORY);
  }
}

async function isGitdir(dir: string): Promise<boolean> {
  const [head, objects] = await Promise.all([
    fs.stat(path.join(dir, "HEAD")).catch(() => undefined),
    fs.stat(path.join(dir, "objects")).catch(() => undefined),
  ]);
  return head?.isFile() === true && objects?.isDirectory() === true;
}

// A `.git` file points elsewhere: a submodule's gitdir (complete) or a linked worktree's, whose
// objects and refs live in the common dir while its HEAD is its own.
async function followGitFile(dir: string, dotGit: string): Promise<GitdirLocation> {
  const pointer = /^gitdir: (.+)$/m.exec(await fs.readFile(dotGit, "utf8"))?.[1]?.trim();
  if (pointer === undefined) throw new LoupeError("git_repository_invalid", NOT_A_REPOSITORY);
  const gitdir = path.resolve(dir, pointer);
  const commondir = await fs.readFile(path.join(gitdir, "commondir"), "utf8").catch(() => undefined);
  if (commondir === undefined) {
    if (await isGitdir(gitdir)) return { gitdir };
    throw new LoupeError("git_repository_invalid", NOT_A_REPOSITORY);
  }
  const common = path.resolve(gitdir, commondir.trim());
  const head = (await fs.readFile(path.join(gitdir, "HEAD"), "utf8").catch(() => "")).trim();
  const headOverride = head.startsWith("ref: ") ? head.slice(5) : head;
  if (!(await isGitdir(common)) || headOverride === "") {
    throw new LoupeError("git_repository_invalid", NOT_A_REPOSITORY);
  }
  return { gitdir: common, headOverride };
}
