// The pull request's changed files as `git diff` lists them: the tree diff of merge-base → head
// with renames detected. Computed once per view (a detection reads blobs) and shared by every
// tool call and listing of the review.

import { diffSnapshots, type TreeChange } from "../workspace/tree-diff.ts";
import type { RepositoryView } from "../workspace/types.ts";
import { detectRenames } from "./detect-renames.ts";

const computed = new WeakMap<RepositoryView, Promise<readonly TreeChange[]>>();

export function changesOf(view: RepositoryView): Promise<readonly TreeChange[]> {
  let changes = computed.get(view);
  if (changes === undefined) {
    changes = detectRenames(diffSnapshots(view.mergeBase, view.head), { objects: view.objects });
    computed.set(view, changes);
  }
  return changes;
}
