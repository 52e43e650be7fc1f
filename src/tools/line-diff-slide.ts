// Moves each run of changed lines to where a reader expects it. A run whose first line equals
// the line after it can slide down (and up, symmetrically) without changing what the diff says:
// `a b a` → `a` shows the same edit whether the first or the last `a b` is deleted. Like
// `git diff --no-indent-heuristic`, runs are merged when sliding makes them touch, aligned with a
// change on the other side when one is in reach, and otherwise put as low as they go.
//
// Both flag arrays carry a 0 sentinel at index 0 and at length + 1 (line i is at index i + 1).
// The unchanged lines of the two sides pair up in order, so "the gaps between unchanged lines"
// (groups, possibly empty) correspond one to one across the sides; `other` walks in step.

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

function slideDown(ids: Int32Array, changed: Uint8Array, group: Group): boolean {
  if (group.end >= changed.length - 1 || ids[group.start - 1] !== ids[group.end - 1]) return false;
  changed[group.start] = 0;
  changed[group.end] = 1;
  group.start += 1;
  group.end += 1;
  while (changed[group.end] === 1) group.end += 1;
  return true;
}

function slideUp(ids: Int32Array, changed: Uint8Array, group: Group): boolean {
  if (group.start <= 1 || ids[group.start - 2] !== ids[group.end - 2]) return false;
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

export function slideChangeGroups(ids: Int32Array, changed: Uint8Array, otherChanged: Uint8Array): void {
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
        while (slideUp(ids, changed, group)) must(previousGroup(otherChanged, other));
        highestEnd = group.end;
        if (other.end > other.start) alignedEnd = group.end;
        while (slideDown(ids, changed, group)) {
          must(nextGroup(otherChanged, other));
          if (other.end > other.start) alignedEnd = group.end;
        }
        // Sliding may have joined the next run: go again with the bigger group.
      } while (size !== group.end - group.start);
      if (group.end !== highestEnd && alignedEnd !== -1) {
        while (other.end === other.start) {
          must(slideUp(ids, changed, group));
          must(previousGroup(otherChanged, other));
        }
      }
    }
    if (!nextGroup(changed, group)) return;
    must(nextGroup(otherChanged, other));
  }
}
