// How git's words for a change (the tree diff, inspect_git_diff) and the port's (a ChangedFile's
// status, whichever forge listed it) relate. Git tells a mode change from a type change and says
// "deleted"; the port has one word for both and says "removed", as GitHub does. The model reads
// one set of words everywhere: its file list says "deleted" as inspect_git_diff does.

import type { ChangeStatus } from "../domain/changed-file.ts";
import type { TreeChangeStatus } from "../workspace/tree-diff.ts";

const PORT_STATUS: Readonly<Record<TreeChangeStatus, ChangeStatus>> = {
  added: "added",
  modified: "modified",
  deleted: "removed",
  renamed: "renamed",
  mode_changed: "changed",
  type_changed: "changed",
};

/** The port's status of a change Loupe's own diff found. */
export function changeStatusOfTree(status: TreeChangeStatus): ChangeStatus {
  return PORT_STATUS[status];
}

/** A status as the model's file list shows it: the port's, with git's "deleted" for "removed". */
export type ListedStatus = Exclude<ChangeStatus, "removed"> | "deleted";

export function listedStatus(status: ChangeStatus): ListedStatus {
  return status === "removed" ? "deleted" : status;
}
