// Loupe's action never checks out or runs a pull request's code, which is what makes
// `pull_request_target` safe: the token there can write to the base repository. A step before
// Loupe that checked out the head (or GitHub's merge of it) breaks that promise for the whole job,
// so the action refuses to run beside such a checkout.
//
// Where it looks: every git checkout (a `.git` folder, or a `.git` file of a linked worktree or a
// submodule) in GITHUB_WORKSPACE and in RUNNER_TEMP, down to MAX_DEPTH folders below each, at most
// MAX_FOLDERS folders in all, `node_modules` left out. What it takes for the head: a checkout whose
// HEAD is the head commit, a commit whose parent is the head (GitHub's merge commit, or a local
// merge), or any commit whose tree is the head's tree (the head's files under another commit id).
// What it cannot see is in docs/github-action.md ("The checkout guard").

import fs from "node:fs";
import path from "node:path";
import git from "isomorphic-git";

export const MAX_DEPTH = 4;
export const MAX_FOLDERS = 5_000;

export interface GuardRoots {
  /** GITHUB_WORKSPACE */
  readonly workspace: string | null;
  /** RUNNER_TEMP */
  readonly temp: string | null;
}

export interface HeadCommit {
  readonly sha: string;
  /** The head's tree (from GitHub), or null when it could not be read: then only commits count. */
  readonly tree: string | null;
}

interface Checkout {
  /** `GITHUB_WORKSPACE/pr`, `RUNNER_TEMP/x/y` */
  readonly label: string;
  readonly dir: string;
}

/** The checkout of the pull request's head found beside Loupe, as a sentence; null when none. */
export async function headCheckout(roots: GuardRoots, head: HeadCommit): Promise<string | null> {
  for (const checkout of checkoutsIn(roots)) {
    const found = await heldCommit(checkout.dir, head);
    if (found !== null) {
      return `${checkout.label} holds a checkout of the pull request's ${found} (${head.sha.slice(0, 12)}), made before Loupe ran. Loupe reads the pull request through the API and never runs its code; remove the step that checked out the pull request's head from this job (a checkout of the base branch is fine).`;
    }
  }
  return null;
}

/** Every folder holding `.git`, breadth first under each root, within the bounds. */
function checkoutsIn(roots: GuardRoots): Checkout[] {
  const found: Checkout[] = [];
  const seen = new Set<string>();
  let folders = 0;
  const queue: { dir: string; label: string; depth: number }[] = [];
  if (roots.workspace !== null) queue.push({ dir: roots.workspace, label: "GITHUB_WORKSPACE", depth: 0 });
  if (roots.temp !== null) queue.push({ dir: roots.temp, label: "RUNNER_TEMP", depth: 0 });
  while (queue.length > 0 && folders < MAX_FOLDERS) {
    const { dir, label, depth } = queue.shift()!;
    const real = realPath(dir);
    if (real === null || seen.has(real)) continue;
    seen.add(real);
    folders++;
    const entries = listFolder(dir);
    if (entries.some((entry) => entry.name === ".git")) found.push({ label, dir });
    if (depth === MAX_DEPTH) continue;
    for (const entry of entries) {
      if (entry.name === ".git" || entry.name === "node_modules") continue;
      const full = path.join(dir, entry.name);
      if (fs.statSync(full, { throwIfNoEntry: false })?.isDirectory() === true)
        queue.push({ dir: full, label: `${label}/${entry.name}`, depth: depth + 1 });
    }
  }
  return found;
}

function realPath(dir: string): string | null {
  try {
    return fs.realpathSync(dir);
  } catch {
    return null;
  }
}

function listFolder(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Where a checkout's objects are, and the commit its HEAD names; null when it is no repository. */
async function headOf(dir: string): Promise<{ readonly gitdir: string; readonly oid: string } | null> {
  const dotGit = path.join(dir, ".git");
  try {
    if (fs.statSync(dotGit).isDirectory()) {
      return { gitdir: dotGit, oid: await git.resolveRef({ fs, gitdir: dotGit, ref: "HEAD" }) };
    }
    // A linked worktree or a submodule: `.git` is a file naming the real gitdir; a worktree's own
    // gitdir has its HEAD, and its objects and refs are in the common dir.
    const pointer = /^gitdir: (.+)$/m.exec(fs.readFileSync(dotGit, "utf8"))?.[1]?.trim();
    if (pointer === undefined) return null;
    const own = path.resolve(dir, pointer);
    const common = fs.readFileSync(path.join(own, "commondir"), { encoding: "utf8", flag: "r" }).trim();
    const gitdir = path.resolve(own, common);
    const headText = fs.readFileSync(path.join(own, "HEAD"), "utf8").trim();
    const oid = headText.startsWith("ref: ")
      ? await git.resolveRef({ fs, gitdir, ref: headText.slice(5) })
      : headText;
    return { gitdir, oid };
  } catch {
    return submodule(dotGit);
  }
}

/** A submodule's `.git` file points at a complete gitdir (no commondir). */
async function submodule(dotGit: string): Promise<{ readonly gitdir: string; readonly oid: string } | null> {
  try {
    const pointer = /^gitdir: (.+)$/m.exec(fs.readFileSync(dotGit, "utf8"))?.[1]?.trim();
    if (pointer === undefined) return null;
    const gitdir = path.resolve(path.dirname(dotGit), pointer);
    return { gitdir, oid: await git.resolveRef({ fs, gitdir, ref: "HEAD" }) };
  } catch {
    return null;
  }
}

async function heldCommit(dir: string, head: HeadCommit): Promise<string | null> {
  const at = await headOf(dir);
  if (at === null) return null;
  if (at.oid === head.sha) return "head";
  let commit: { readonly parent: readonly string[]; readonly tree: string };
  try {
    commit = (await git.readCommit({ fs, gitdir: at.gitdir, oid: at.oid })).commit;
  } catch {
    return null;
  }
  // actions/checkout on a pull_request event checks out GitHub's merge commit, whose parent is the head.
  if (commit.parent.includes(head.sha)) return "merge commit";
  const tree = head.tree ?? (await treeOf(at.gitdir, head.sha));
  return tree !== null && commit.tree === tree
    ? `files (the head's tree under commit ${at.oid.slice(0, 12)})`
    : null;
}

/** The head's tree when this repository has the head commit (GitHub could not say). */
async function treeOf(gitdir: string, sha: string): Promise<string | null> {
  try {
    return (await git.readCommit({ fs, gitdir, oid: sha })).commit.tree;
  } catch {
    return null;
  }
}
