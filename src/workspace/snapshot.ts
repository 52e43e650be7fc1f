// Reads commit trees and blobs straight from a git object store with isomorphic-git, with one
// shared cache per workspace (isomorphic-git re-parses pack indexes without it).

import fs from "node:fs";
import git from "isomorphic-git";
import type { CommitSnapshot, EntryMode, ObjectReader, TreeEntry } from "./types.ts";

const MODES: Readonly<Record<string, EntryMode>> = {
  "100644": "file",
  "100755": "executable",
  "120000": "symlink",
  "160000": "submodule",
};

export interface ObjectStoreLocation {
  readonly gitdir: string;
  /** isomorphic-git's parsed-pack cache, shared by every read of this store. */
  readonly cache: object;
}

export function createObjectStore(gitdir: string): ObjectStoreLocation {
  return { gitdir, cache: {} };
}

export async function readCommitSnapshot(
  store: ObjectStoreLocation,
  commit: string,
): Promise<CommitSnapshot> {
  const { commit: parsed } = await git.readCommit({
    fs,
    gitdir: store.gitdir,
    oid: commit,
    cache: store.cache,
  });
  const entries: TreeEntry[] = [];
  await collectTree(store, parsed.tree, "", entries);
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { commit, entries, byPath: new Map(entries.map((entry) => [entry.path, entry])) };
}

async function collectTree(
  store: ObjectStoreLocation,
  treeOid: string,
  prefix: string,
  out: TreeEntry[],
): Promise<void> {
  const { tree } = await git.readTree({ fs, gitdir: store.gitdir, oid: treeOid, cache: store.cache });
  for (const item of tree) {
    const path = prefix === "" ? item.path : `${prefix}/${item.path}`;
    if (item.type === "tree") {
      await collectTree(store, item.oid, path, out);
      continue;
    }
    const mode = MODES[item.mode];
    if (mode !== undefined) out.push({ path, mode, oid: item.oid });
  }
}

export function createObjectReader(store: ObjectStoreLocation): ObjectReader {
  return {
    async readBlob(oid: string): Promise<Uint8Array> {
      const { blob } = await git.readBlob({ fs, gitdir: store.gitdir, oid, cache: store.cache });
      return blob;
    },
  };
}
