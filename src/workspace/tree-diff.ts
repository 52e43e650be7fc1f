// The merge-base → head change list, computed from the two sorted snapshots alone (no git
// binary): added, deleted, modified, mode and type changes, path by path. Renames are found
// afterwards from the added and deleted files (src/diff/detect-renames.ts), as git finds them.

import type { CommitSnapshot, EntryMode, TreeEntry } from "./types.ts";

/** git's words, as inspect_git_diff shows them; the port's are domain/changed-file.ts's (diff/change-status.ts). */
export type TreeChangeStatus = "added" | "modified" | "deleted" | "renamed" | "mode_changed" | "type_changed";

export interface TreeChange {
  readonly status: TreeChangeStatus;
  /** The head-side path (the base-side path for a deletion). */
  readonly path: string;
  /** The base-side path of a rename. */
  readonly previousPath?: string;
  readonly oldEntry?: TreeEntry;
  readonly newEntry?: TreeEntry;
  /** A rename's `similarity index`, in percent (git rounds down). */
  readonly similarity?: number;
}

type Kind = "regular" | "symlink" | "submodule";

function kindOf(mode: EntryMode): Kind {
  return mode === "file" || mode === "executable" ? "regular" : mode;
}

function compareChange(oldEntry: TreeEntry, newEntry: TreeEntry): TreeChangeStatus | undefined {
  if (kindOf(oldEntry.mode) !== kindOf(newEntry.mode)) return "type_changed";
  if (oldEntry.oid !== newEntry.oid) return "modified";
  return oldEntry.mode === newEntry.mode ? undefined : "mode_changed";
}

/** Every path whose entry differs, in path order, before rename detection. */
export function diffSnapshots(base: CommitSnapshot, head: CommitSnapshot): TreeChange[] {
  const changes: TreeChange[] = [];
  let i = 0;
  let j = 0;
  while (i < base.entries.length || j < head.entries.length) {
    const oldEntry = base.entries[i];
    const newEntry = head.entries[j];
    if (newEntry === undefined || (oldEntry !== undefined && oldEntry.path < newEntry.path)) {
      changes.push({ status: "deleted", path: oldEntry!.path, oldEntry: oldEntry! });
      i += 1;
    } else if (oldEntry === undefined || newEntry.path < oldEntry.path) {
      changes.push({ status: "added", path: newEntry.path, newEntry });
      j += 1;
    } else {
      const status = compareChange(oldEntry, newEntry);
      if (status !== undefined) changes.push({ status, path: newEntry.path, oldEntry, newEntry });
      i += 1;
      j += 1;
    }
  }
  return changes;
}
