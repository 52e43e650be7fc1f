// The files a review covers: the host's three-dot change, cut by `max_files`, the `paths` rules
// and the base's `.gitattributes` (generated, vendored, no diff wanted). A host that already sees a newer head ends the review as superseded (that push gets its
// own review); a change too large or with nothing left to review is a skip, not a fault.

import { type AttributeReason, type GitAttributes, NO_ATTRIBUTES } from "../config/git-attributes.ts";
import { isPathIncludedInSlices } from "../config/paths-in-slices.ts";
import type { RepoConfig } from "../config/repo-config-schema.ts";
import type { ChangedFile, ChangeSet } from "../domain/changed-file.ts";
import type { ForgeWords } from "../domain/forge-words.ts";
import { TimeSlices } from "../domain/time-slices.ts";
import { filterInSlices } from "./filter-in-slices.ts";
import { type ReviewOutcome, skipped } from "./review-outcome.ts";

export type ChangeStep =
  | {
      readonly kind: "change";
      readonly reviewable: readonly ChangedFile[];
      readonly skippedFiles: number;
      /** Files the repository's `.gitattributes` left out, and why. */
      readonly leftOut: ReadonlyMap<string, AttributeReason>;
    }
  | ReviewOutcome;

export async function selectChange(
  changes: ChangeSet,
  config: RepoConfig,
  words: ForgeWords,
  attributes: GitAttributes = NO_ATTRIBUTES,
): Promise<ChangeStep> {
  if (changes.headMovedTo !== null) {
    return { kind: "cancelled", reason: { kind: "superseded", headSha: changes.headMovedTo } };
  }
  const listed = changes.files.length;
  // Not a matter of `paths`: there is nothing to look at (head is base, or adds nothing to it).
  if (listed === 0)
    return skipped("no_changes", "The change has no changed files: head adds nothing to the merge-base.");
  if (listed > config.max_files || changes.filesTruncated) {
    const count = changes.filesTruncated ? `${listed}+` : `${listed}`;
    return skipped(
      "too_many_files",
      `The ${words.change} changes ${count} files; \`max_files\` is ${config.max_files}.`,
    );
  }
  // Compiling the lists and matching a long name can each take a while: both in time slices.
  const slices = new TimeSlices();
  const leftOut = new Map<string, AttributeReason>();
  const reviewable = await filterInSlices(changes.files, async (f) => {
    if (f.status === "removed" || !(await isPathIncludedInSlices(config, f.filename, slices))) return false;
    const reason = await attributes.reasonFor(f.filename, slices);
    if (reason !== null) leftOut.set(f.filename, reason);
    return reason === null;
  });
  if (reviewable.length === 0) {
    const detail = changes.files.every((f) => f.status === "removed")
      ? "The change only deletes files: nothing is left to review."
      : leftOut.size > 0
        ? "No reviewable files after the `paths` rules and `.gitattributes` (generated, vendored, no diff)."
        : "No reviewable files after the `paths` include/exclude rules.";
    return skipped("no_files", detail);
  }
  return { kind: "change", reviewable, skippedFiles: listed - reviewable.length, leftOut };
}
