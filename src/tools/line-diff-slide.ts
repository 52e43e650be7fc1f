// Moves each run of changed lines to where a reader expects it. A run whose first line equals
// the line after it can slide down (and up, symmetrically) without changing what the diff says:
// `a b a` → `a` shows the same edit whether the first or the last `a b` is deleted. Like
// `git diff` (xdl_change_compact), runs are merged when sliding makes them touch, aligned with a
// change on the other side when one is in reach, and otherwise placed by git's indent heuristic
// (line-diff-indent.ts) among the places they can slide to.
//
// Both flag arrays carry a 0 sentinel at index 0 and at length + 1 (line i is at index i + 1).
// The unchanged lines of the two sides pair up in order, so "the gaps between unchanged lines"
// (groups, possibly empty) correspond one to one across the sides; `other` walks in step.

import { bestRunEnd } from "./line-diff-indent.ts";

interface Group {
  start: number;
  end: number;
}

function firstGroup(changed: Uint8Array): Group {
  const group = { start: 1, end: 1 };
  while (changed[group.end] === 1) group.end += 1;
  return group;
}

function nextGroup(changed: Uint8Array, group: Group): boolean {
  if (group.end >= changed.length - 1) return false;
  group.start = group.end + 1;
  group.end = group.start;
  while (changed[group.end] === 1) group.end += 1;
  return true;
}

function previousGroup(changed: Uint8Array, group: Group): boolean {
  if (group.start <= 1) return false;
  group.end = group.start - 1;
  group.start = group.end;
  while (changed[group.start - 1] === 1) group.start -= 1;
  return true;
}

function slideDown(lines: readonly string[], changed: Uint8Array, group: Group): boolean {
  if (group.end >= changed.length - 1 || lines[group.start - 1] !== lines[group.end - 1]) return false;
  changed[group.start] = 0;
  changed[group.end] = 1;
  group.start += 1;
  group.end += 1;
  while (changed[group.end] === 1) group.end += 1;
  return true;
}

function slideUp(lines: readonly string[], changed: Uint8Array, group: Group): boolean {
  if (group.start <= 1 || lines[group.start - 2] !== lines[group.end - 2]) return false;
  group.start -= 1;
  group.end -= 1;
  changed[group.start] = 1;
  changed[group.end] = 0;
  while (changed[group.start - 1] === 1) group.start -= 1;
  return true;
}

function must(moved: boolean): void {
  // The sides have as many groups as unchanged lines plus one; a walk off either end is a bug.
  if (!moved) throw new Error("line-diff: the two sides' groups are out of step");
}

/**
 * `indentOf(i)` is the indentation of line i of this side (lineIndent), for the indent heuristic.
 */
export function slideChangeGroups(
  records: readonly string[],
  changed: Uint8Array,
  otherChanged: Uint8Array,
  indentOf: (line: number) => number,
): void {
  const lines = records.length;
  const group = firstGroup(changed);
  const other = firstGroup(otherChanged);
  for (;;) {
    if (group.end > group.start) {
      let size: number;
      let alignedEnd: number;
      let highestEnd: number;
      do {
        size = group.end - group.start;
        alignedEnd = -1;
        while (slideUp(records, changed, group)) must(previousGroup(otherChanged, other));
        highestEnd = group.end;
        if (other.end > other.start) alignedEnd = group.end;
        while (slideDown(records, changed, group)) {
          must(nextGroup(otherChanged, other));
          if (other.end > other.start) alignedEnd = group.end;
        }
        // Sliding may have joined the next run: go again with the bigger group.
      } while (size !== group.end - group.start);
      if (group.end !== highestEnd && alignedEnd !== -1) {
        while (other.end === other.start) {
          must(slideUp(records, changed, group));
          must(previousGroup(otherChanged, other));
        }
      } else if (group.end !== highestEnd) {
        // Group ends are indices into `changed`, one past the line index: line i is at i + 1.
        const best = bestRunEnd(highestEnd - 1, group.end - 1, size, lines, indentOf) + 1;
        while (group.end > best) {
          must(slideUp(records, changed, group));
          must(previousGroup(otherChanged, other));
        }
      }
    }
    if (!nextGroup(changed, group)) return;
    must(nextGroup(otherChanged, other));
  }
}
