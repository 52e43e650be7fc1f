// What GitLab does to a merge request's diff notes when its head moves: each note's position is
// traced from its diff to the new one (DiffNote#update_position in app/models/diff_note.rb, run by
// Discussions::UpdateDiffPositionService through Gitlab::Diff::PositionTracer::LineStrategy). A
// line the new head leaves unchanged moves to the new diff (its number shifted by the lines added
// or removed above it); a changed or removed line, or a file the new head no longer has, keeps its
// old position, which DiffNote#active? then reads as outdated. Only the new side is traced here:
// Loupe reads a position's new_path, new_line and head_sha.

import { git } from "./fake-gitlab-diffs.ts";
import type { FakeMergeRequest, FakeNote } from "./fake-gitlab-state.ts";

export function tracePositions(
  gitdir: string,
  home: string,
  mr: FakeMergeRequest,
  notes: readonly FakeNote[],
): void {
  for (const note of notes) {
    const p = note.position;
    if (note.projectId !== mr.projectId || note.iid !== mr.iid || p === null) continue;
    if (p.head_sha === mr.diffRefs.head_sha || p.new_line === null) continue;
    const line = traceLine(
      gitdir,
      home,
      { from: p.head_sha, to: mr.diffRefs.head_sha },
      p.new_path,
      p.new_line,
    );
    if (line === null) continue;
    note.position = { ...p, ...mr.diffRefs, new_line: line };
  }
}

/** The line's number at `to`, or null when `to` changed or removed it. */
function traceLine(
  gitdir: string,
  home: string,
  heads: { readonly from: string; readonly to: string },
  file: string,
  line: number,
): number | null {
  try {
    git(gitdir, home, "cat-file", "-e", `${heads.to}:${file}`);
  } catch {
    return null;
  }
  const diff = git(
    gitdir,
    home,
    "diff",
    "--no-color",
    "--no-renames",
    "-U0",
    heads.from,
    heads.to,
    "--",
    file,
  );
  let shift = 0;
  for (const [, a, b, , d] of diff.matchAll(/^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm)) {
    const start = Number(a);
    const removed = b === undefined ? 1 : Number(b);
    const added = d === undefined ? 1 : Number(d);
    if (removed > 0 && start <= line && line < start + removed) return null;
    // A pure insertion "-a,0" goes after old line a; a removal or change ends before `line`.
    const before = removed === 0 ? start < line : start + removed - 1 < line;
    if (before) shift += added - removed;
  }
  return line + shift;
}
