// Loupe's action never checks out or runs a pull request's code, which is what makes
// `pull_request_target` safe: the token there can write to the base repository. A step before
// Loupe that checked out the head (or GitHub's merge of it) breaks that promise for the whole job,
// so the action refuses to run beside such a checkout — in the workspace or one folder down.

import fs from "node:fs";
import path from "node:path";
import git from "isomorphic-git";

/** The checkout of the pull request's head found in the workspace, as a sentence; null when none. */
export async function headCheckout(workspace: string | null, headSha: string): Promise<string | null> {
  if (workspace === null) return null;
  for (const dir of [workspace, ...subfolders(workspace)]) {
    const found = await checkedOutHead(dir, headSha);
    if (found !== null) {
      const where = dir === workspace ? "GITHUB_WORKSPACE" : `GITHUB_WORKSPACE/${path.basename(dir)}`;
      return `${where} holds a checkout of the pull request's ${found} (${headSha.slice(0, 12)}), made before Loupe ran. Loupe reads the pull request through the API and never runs its code; remove the actions/checkout step of the pull request's head from this job (a checkout of the base branch is fine).`;
    }
  }
  return null;
}

function subfolders(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.name !== ".git")
      .map((entry) => path.join(dir, entry.name))
      .filter((full) => fs.statSync(full, { throwIfNoEntry: false })?.isDirectory() === true);
  } catch {
    return [];
  }
}

async function checkedOutHead(dir: string, headSha: string): Promise<string | null> {
  if (!fs.existsSync(path.join(dir, ".git"))) return null;
  let sha: string;
  try {
    sha = await git.resolveRef({ fs, dir, ref: "HEAD" });
  } catch {
    return null;
  }
  if (sha === headSha) return "head";
  try {
    // actions/checkout on a pull_request event checks out GitHub's merge commit, whose parent is the head.
    const { commit } = await git.readCommit({ fs, dir, oid: sha });
    return commit.parent.includes(headSha) ? "merge commit" : null;
  } catch {
    return null;
  }
}
