// The changed files of a local change as the port's ChangedFile (git's words mapped by
// diff/change-status.ts), so that the
// App's publishing plan decides which findings would be inline comments: the `patch` is the
// hunks of Loupe's own diff (the one inspect_git_diff shows, git's algorithm), without the
// `diff --git`/`---`/`+++` header lines, as GitHub gives it; none for binary or too-large files.

import { changeStatusOfTree } from "../../diff/change-status.ts";
import type { ChangedFile } from "../../domain/changed-file.ts";
import { patchOf } from "../../review/patch-hunks.ts";
import { DEFAULT_TOOL_LIMITS } from "../../tools/limits.ts";
import { formatChangePatch } from "../../tools/unified-diff.ts";
import type { TreeChange } from "../../workspace/tree-diff.ts";
import type { ObjectReader } from "../../workspace/types.ts";

export async function localChangedFiles(
  changes: readonly TreeChange[],
  objects: ObjectReader,
): Promise<ChangedFile[]> {
  const files: ChangedFile[] = [];
  for (const change of changes) {
    const text = await formatChangePatch(change, { objects, maxFileBytes: DEFAULT_TOOL_LIMITS.maxFileBytes });
    // A type change is two patches (the old entry deleted, the new one added): the head's is last.
    const lastPatch = text.slice(Math.max(0, text.lastIndexOf("\ndiff --git ") + 1));
    files.push({
      filename: change.path,
      status: changeStatusOfTree(change.status),
      previousFilename: change.previousPath ?? null,
      ...patchOf(lastPatch),
      ...(change.similarity === undefined ? {} : { similarity: change.similarity }),
    });
  }
  return files;
}
