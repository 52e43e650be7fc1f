// git's words for a change and the port's: a deletion is "removed" in the port and "deleted" to the
// model (as inspect_git_diff says), a mode or type change is the port's "changed".

import { expect, it } from "@jest/globals";
import { changeStatusOfTree, listedStatus } from "../../../src/diff/change-status.ts";

it("maps git's statuses into the port's and the port's into the model's list", () => {
  const git = ["added", "modified", "deleted", "renamed", "mode_changed", "type_changed"] as const;
  expect(git.map(changeStatusOfTree)).toEqual([
    "added",
    "modified",
    "removed",
    "renamed",
    "changed",
    "changed",
  ]);
  const port = ["added", "modified", "removed", "renamed", "copied", "changed"] as const;
  expect(port.map(listedStatus)).toEqual(["added", "modified", "deleted", "renamed", "copied", "changed"]);
});
