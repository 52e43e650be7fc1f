// Decides where one finding can be commented on: RIGHT-side lines (added + context) of one hunk
// of GitHub's own patch for that file. Anything else would make GitHub reject the whole review.

import type { Finding } from "../domain/finding.ts";
import { type Hunk, parsePatch } from "./patch-hunks.ts";
import type { Anchor, ChangedFile } from "./plan-types.ts";

export function anchorFinding(finding: Finding, file: ChangedFile | undefined, headText?: string): Anchor {
  if (finding.line === null || !Number.isInteger(finding.line) || finding.line < 1) {
    return { kind: "outside", reason: "no_line" };
  }
  if (file === undefined) return { kind: "outside", reason: "file_not_in_diff" };
  // No patch: binary, too large for GitHub, or a pure rename. There is no hunk to anchor to.
  if (file.patch === undefined || file.patch === "") return { kind: "outside", reason: "no_patch" };
  const [first, last] = findingRange(finding);
  const hunks = parsePatch(file.patch);
  const code = findingCode(finding, headText, hunks);
  const containing = hunks.find((h) => rightContains(h, first) && rightContains(h, last));
  if (containing !== undefined) {
    return inline(file.filename, first, last, code, true);
  }
  // The range does not fit in one hunk: comment on the part of it inside the last hunk that
  // overlaps it (the end of a range is usually where the problem shows), never a suggestion.
  for (let i = hunks.length - 1; i >= 0; i--) {
    const hunk = hunks[i]!;
    const start = Math.max(first, hunk.newStart);
    const end = Math.min(last, hunk.newStart + hunk.newLines - 1);
    if (hunk.newLines > 0 && start <= end) return inline(file.filename, start, end, code, false);
  }
  return { kind: "outside", reason: "line_not_in_diff" };
}

/** [first, last] of the finding's range; an end_line before line is read as a single line. */
export function findingRange(finding: Finding): [number, number] {
  const line = finding.line ?? 0;
  const end = finding.end_line;
  return [line, typeof end === "number" && Number.isInteger(end) && end > line ? end : line];
}

/**
 * The head file's lines of the finding's range: from the head text when given, else from the
 * patch (which carries every RIGHT line). Lines known to neither are left out.
 */
export function findingCode(
  finding: Finding,
  headText: string | undefined,
  hunks: readonly Hunk[],
): string[] {
  if (finding.line === null) return [];
  const [first, last] = findingRange(finding);
  const lines = headText?.split(/\r?\n/);
  // Bound the walk by what exists, so an absurd end_line cannot make it run for ever.
  const known = lines?.length ?? Math.max(0, ...hunks.map((h) => h.newStart + h.newLines - 1));
  const code: string[] = [];
  for (let n = first; n <= Math.min(last, known); n++) {
    const text = lines !== undefined ? lines[n - 1] : hunks.find((h) => h.rightText.has(n))?.rightText.get(n);
    if (text !== undefined) code.push(text);
  }
  return code;
}

function rightContains(hunk: Hunk, line: number): boolean {
  return hunk.rightLines.has(line);
}

function inline(path: string, start: number, end: number, code: string[], fullRange: boolean): Anchor {
  const base = { kind: "inline", path, line: end, side: "RIGHT", anchoredCode: code, fullRange } as const;
  return start < end ? { ...base, startLine: start } : base;
}
