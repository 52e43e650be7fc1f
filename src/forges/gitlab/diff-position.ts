// Where a comment on a head line sits in GitLab's terms: GitLab places a diff note by a position
// (base, start and head SHAs, the old and new paths) and by both line numbers — `new_line` alone
// for an added line, `old_line` and `new_line` for an unchanged context line — and a range by the
// `line_code` of its two ends (sha1 of the path, the old and the new line). A line outside the
// patch's hunks has no position: GitLab would refuse it (400), so it is never sent.

import { createHash } from "node:crypto";
import type { HostComment } from "../../host/pull-request-host.ts";
import { walkPatch } from "../../review/patch-hunks.ts";
import type { DiffRefs } from "./merge-request.ts";

interface LineAt {
  readonly old: number;
  readonly added: boolean;
}

export interface NotePosition {
  readonly position_type: "text";
  readonly base_sha: string;
  readonly start_sha: string;
  readonly head_sha: string;
  readonly old_path: string;
  readonly new_path: string;
  readonly new_line: number;
  readonly old_line?: number;
  readonly line_range?: {
    readonly start: RangeEnd;
    readonly end: RangeEnd;
  };
}

interface RangeEnd {
  readonly line_code: string;
  readonly type: "new" | "old";
  readonly old_line?: number;
  readonly new_line: number;
}

/**
 * Each head line of the patch (added or context) with the old line GitLab counts beside it; none
 * for a malformed patch, whose lines the anchoring refused too.
 */
export function headLines(patch: string): Map<number, LineAt> {
  const lines = new Map<number, LineAt>();
  const wellFormed = walkPatch(patch, {
    line(kind, old, head) {
      if (kind !== "-") lines.set(head, { old, added: kind === "+" });
    },
  });
  return wellFormed ? lines : new Map();
}

/** The position of a comment, or null when a line of it is outside the patch. */
export function notePosition(
  comment: HostComment,
  file: { readonly oldPath: string; readonly lines: ReadonlyMap<number, LineAt> },
  refs: DiffRefs,
): NotePosition | null {
  const end = file.lines.get(comment.line);
  if (end === undefined) return null;
  const base = {
    position_type: "text" as const,
    base_sha: refs.base_sha,
    start_sha: refs.start_sha,
    head_sha: refs.head_sha,
    old_path: file.oldPath,
    new_path: comment.path,
    new_line: comment.line,
    ...(end.added ? {} : { old_line: end.old }),
  };
  if (comment.startLine === undefined || comment.startLine === comment.line) return base;
  const start = file.lines.get(comment.startLine);
  if (start === undefined) return null;
  const rangeEnd = (line: number, at: LineAt): RangeEnd => ({
    line_code: `${createHash("sha1").update(comment.path).digest("hex")}_${at.old}_${line}`,
    type: at.added ? "new" : "old",
    ...(at.added ? {} : { old_line: at.old }),
    new_line: line,
  });
  return {
    ...base,
    line_range: { start: rangeEnd(comment.startLine, start), end: rangeEnd(comment.line, end) },
  };
}
