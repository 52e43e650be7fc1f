// The merge-base → head change list, computed from the two sorted snapshots alone (no git
// binary). Statuses follow `git diff --name-status --find-renames=100%`: only exact renames
// (identical blob id, same kind of entry) are paired, as git does at 100% similarity.

import type { CommitSnapshot, EntryMode, TreeEntry } from "./types.ts";

export type ChangeStatus = "added" | "modified" | "deleted" | "renamed" | "mode_changed" | "type_changed";

export interface TreeChange {
  readonly status: ChangeStatus;
  /** The head-side path (the base-side path for a deletion). */
  readonly path: string;
  /** The base-side path of a rename. */
  readonly previousPath?: string;
  readonly oldEntry?: TreeEntry;
  readonly newEntry?: TreeEntry;
}

type Kind = "regular" | "symlink" | "submodule";

function kindOf(mode: EntryMode): Kind {
  return mode === "file" || mode === "executable" ? "regular" : mode;
}

function compareChange(oldEntry: TreeEntry, newEntry: TreeEntry): ChangeStatus | undefined {
  if (kindOf(oldEntry.mode) !== kindOf(newEntry.mode)) return "type_changed";
  if (oldEntry.oid !== newEntry.oid) return "modified";
  return oldEntry.mode === newEntry.mode ? undefined : "mode_changed";
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** git pairs exact renames by content; among equal candidates it prefers the same file name. */
function pairRenames(deleted: TreeEntry[], added: TreeEntry[]): Map<TreeEntry, TreeEntry> {
  const sources = new Map<string, TreeEntry[]>();
  for (const entry of deleted) {
    if (kindOf(entry.mode) === "submodule") continue;
    const key = `${kindOf(entry.mode)}:${entry.oid}`;
    sources.set(key, [...(sources.get(key) ?? []), entry]);
  }
  const pairs = new Map<TreeEntry, TreeEntry>();
  for (const entry of added) {
    const candidates = sources.get(`${kindOf(entry.mode)}:${entry.oid}`);
    if (candidates === undefined || candidates.length === 0) continue;
    const index = Math.max(
      0,
      candidates.findIndex((candidate) => basename(candidate.path) === basename(entry.path)),
    );
    const [source] = candidates.splice(index, 1);
    pairs.set(entry, source!);
  }
  return pairs;
}

export function diffSnapshots(base: CommitSnapshot, head: CommitSnapshot): TreeChange[] {
  const changes: TreeChange[] = [];
  const deleted: TreeEntry[] = [];
  const added: TreeEntry[] = [];
  let i = 0;
  let j = 0;
  while (i < base.entries.length || j < head.entries.length) {
    const oldEntry = base.entries[i];
    const newEntry = head.entries[j];
    if (newEntry === undefined || (oldEntry !== undefined && oldEntry.path < newEntry.path)) {
      deleted.push(oldEntry!);
      i += 1;
    } else if (oldEntry === undefined || newEntry.path < oldEntry.path) {
      added.push(newEntry);
      j += 1;
    } else {
      const status = compareChange(oldEntry, newEntry);
      if (status !== undefined) changes.push({ status, path: newEntry.path, oldEntry, newEntry });
      i += 1;
      j += 1;
    }
  }
  const renames = pairRenames(deleted, added);
  const renamedSources = new Set(renames.values());
  for (const entry of deleted) {
    if (!renamedSources.has(entry)) changes.push({ status: "deleted", path: entry.path, oldEntry: entry });
  }
  for (const entry of added) {
    const source = renames.get(entry);
    changes.push(
      source === undefined
        ? { status: "added", path: entry.path, newEntry: entry }
        : {
            status: "renamed",
            path: entry.path,
            previousPath: source.path,
            oldEntry: source,
            newEntry: entry,
          },
    );
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
