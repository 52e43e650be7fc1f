// GitHub's file statuses in the port's words: the six the port shares are kept, and a file GitHub
// lists as `unchanged`, or with a word Loupe does not know, is reviewed as modified, never dropped.

import { expect, it } from "@jest/globals";
import { changeStatus, toChangedFile } from "../../../../src/forges/github/compare.ts";

it("keeps GitHub's statuses the port shares", () => {
  for (const status of ["added", "modified", "removed", "renamed", "copied", "changed"])
    expect(changeStatus(status)).toBe(status);
});

it("reads unchanged and unknown statuses as modified", () => {
  for (const status of ["unchanged", "", "Removed", "moved_somewhere"])
    expect(changeStatus(status)).toBe("modified");
  const file = { filename: "a.ts", status: "unchanged", additions: 0, deletions: 0 };
  expect(toChangedFile(file)).toEqual({
    filename: "a.ts",
    status: "modified",
    previousFilename: null,
    patch: null,
    additions: 0,
    deletions: 0,
  });
});
