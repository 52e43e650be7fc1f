// The lines the new commits touched, per file, from the host's comparison of the last head with
// the new one: added lines by head line number, and both neighbours of a deletion (a deleted line
// has no head number; the lines around the gap are where the reader sees the change).

import type { ChangedFile } from "../domain/changed-file.ts";
import { walkPatch } from "../review/patch-hunks.ts";
import type { FileChange } from "./select-resolvable.ts";

/** The head lines a patch touched; of a malformed patch, those before the fault. */
export function changedLines(patch: string): Set<number> {
  const lines = new Set<number>();
  walkPatch(patch, {
    line(kind, _old, head) {
      if (kind === "+") lines.add(head);
      else if (kind === "-") {
        // `head` is the line after the gap: the one before it, too.
        if (head > 1) lines.add(head - 1);
        lines.add(head);
      }
    },
  });
  return lines;
}

export function fileChanges(
  files: readonly Pick<ChangedFile, "filename" | "status" | "previousFilename" | "patch">[],
): Map<string, FileChange> {
  const changes = new Map<string, FileChange>();
  for (const file of files) {
    if (file.status === "removed") {
      changes.set(file.filename, { removed: true, changedLines: new Set() });
      continue;
    }
    if (file.status === "renamed" && file.previousFilename !== null) {
      // Threads on the old name cannot be placed on the new one: treat the old path as gone.
      changes.set(file.previousFilename, { removed: true, changedLines: new Set() });
    }
    // No patch (binary or too large): the whole file may have changed.
    if (file.patch === null) changes.set(file.filename, { removed: true, changedLines: new Set() });
    else changes.set(file.filename, { removed: false, changedLines: changedLines(file.patch) });
  }
  return changes;
}
