// The merge-base of two commits in one object store (what GitHub's three-dot PR diff starts
// from). Criss-cross histories can have several best common ancestors; like `git merge-base`
// without `--all`, one is picked, deterministically (the smallest id).

import fs from "node:fs";
import git from "isomorphic-git";

export async function findMergeBase(
  store: { readonly gitdir: string; readonly cache: object },
  base: string,
  head: string,
): Promise<string | undefined> {
  if (base === head) return base;
  const found = (await git.findMergeBase({
    fs,
    gitdir: store.gitdir,
    oids: [base, head],
    cache: store.cache,
  })) as string[];
  return [...found].sort()[0];
}
