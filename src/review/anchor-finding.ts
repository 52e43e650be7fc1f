// Decides where one finding can be commented on: RIGHT-side lines (added + context) of one hunk
// of the host's own patch for that file. Anything else would make the forge reject the whole review.

import type { ChangedFile } from "../domain/changed-file.ts";
import type { Finding } from "../domain/finding.ts";
import { type Hunk, parsePatch } from "./patch-hunks.ts";
import type { Anchor } from "./plan-types.ts";

/** `hunks` are the file's patch parsed (planReview parses each file's once); else it is parsed here. */
export function anchorFinding(
  finding: Finding,
  file: Pick<ChangedFile, "filename" | "patch"> | undefined,
  hunks?: readonly Hunk[],
): Anchor {
  if (finding.line === null || !Number.isInteger(finding.line) || finding.line < 1) {
    return { kind: "outside", reason: "no_line" };
  }
  if (file === undefined) return { kind: "outside", reason: "file_not_in_diff" };
  // No patch: binary, too large for GitHub, or a pure rename. There is no hunk to anchor to.
  if (file.patch === null || file.patch === "") return { kind: "outside", reason: "no_patch" };
  const [first, last] = findingRange(finding);
  const parsed = hunks ?? parsePatch(file.patch);
  const containing = parsed.find((h) => rightContains(h, first) && rightContains(h, last));
  if (containing !== undefined) {
    return inline(file.filename, first, last, true);
  }
  // The range does not fit in one hunk: comment on the part of it inside the last hunk that
  // overlaps it (the end of a range is usually where the problem shows), never a suggestion.
  for (let i = parsed.length - 1; i >= 0; i--) {
    const hunk = parsed[i]!;
    const start = Math.max(first, hunk.newStart);
    const end = Math.min(last, hunk.newStart + hunk.newLines - 1);
    if (hunk.newLines > 0 && start <= end) return inline(file.filename, start, end, false);
  }
  return { kind: "outside", reason: "line_not_in_diff" };
}

/** [first, last] of the finding's range; an end_line before line is read as a single line. */
export function findingRange(finding: Finding): [number, number] {
  const line = finding.line ?? 0;
  const end = finding.end_line;
  return [line, typeof end === "number" && Number.isInteger(end) && end > line ? end : line];
}

function rightContains(hunk: Hunk, line: number): boolean {
  return hunk.rightLines.has(line);
}

function inline(path: string, start: number, end: number, fullRange: boolean): Anchor {
  const base = { kind: "inline", path, line: end, side: "RIGHT", fullRange } as const;
  return start < end ? { ...base, startLine: start } : base;
}
