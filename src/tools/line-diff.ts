// Which lines of two texts changed: Myers' O(ND) difference algorithm in its linear-space form
// (E. Myers, "An O(ND) Difference Algorithm and Its Variations", 1986, section 4b), on lines
// interned to integers. Two classic shortcuts keep large files fast, as in GNU diff and git:
// common leading/trailing lines are trimmed, and a line that does not occur at all on the other
// side is marked changed at once and left out of the search. Past a cost bound the search takes
// the furthest-reaching path instead of the shortest edit, so a rewritten 200,000-line file costs
// milliseconds and the result is still a correct (if not minimal) diff.

import { lineIndent } from "./line-diff-indent.ts";
import { slideChangeGroups } from "./line-diff-slide.ts";
import { type Box, middleSnake } from "./line-diff-snake.ts";

export interface LineChanges {
  /** 1 for every old line that is deleted. */
  readonly oldChanged: Uint8Array;
  /** 1 for every new line that is added. */
  readonly newChanged: Uint8Array;
}

/** The edit cost after which a search settles for a good split rather than the best one. */
const MIN_COST_BOUND = 256;

/** Roughly the square root, as a power of two (bounds the search like git's own heuristics). */
function roughSqrt(n: number): number {
  let root = 1;
  for (let rest = n; rest > 0; rest = Math.floor(rest / 4)) root *= 2;
  return root;
}

interface Interned {
  readonly oldIds: Int32Array;
  readonly newIds: Int32Array;
  readonly oldCount: Int32Array;
  readonly newCount: Int32Array;
}

function intern(oldLines: readonly string[], newLines: readonly string[]): Interned {
  const ids = new Map<string, number>();
  const idOf = (line: string): number => {
    let id = ids.get(line);
    if (id === undefined) {
      id = ids.size;
      ids.set(line, id);
    }
    return id;
  };
  const oldIds = Int32Array.from(oldLines, idOf);
  const newIds = Int32Array.from(newLines, idOf);
  const oldCount = new Int32Array(ids.size);
  const newCount = new Int32Array(ids.size);
  for (const id of oldIds) oldCount[id]! += 1;
  for (const id of newIds) newCount[id]! += 1;
  return { oldIds, newIds, oldCount, newCount };
}

/** lineIndent per line, computed on first use: only lines next to a sliding run are ever asked. */
function indentLookup(lines: readonly string[]): (line: number) => number {
  let cache: Int16Array | null = null;
  return (line) => {
    cache ??= new Int16Array(lines.length).fill(-2);
    let indent = cache[line]!;
    if (indent === -2) {
      indent = lineIndent(lines[line]!);
      cache[line] = indent;
    }
    return indent;
  };
}

export function diffLines(oldLines: readonly string[], newLines: readonly string[]): LineChanges {
  const { oldIds, newIds, oldCount, newCount } = intern(oldLines, newLines);
  // Sentinels at both ends (index 0 and length + 1) make the group walks below branch-free.
  const oldChanged = new Uint8Array(oldIds.length + 2);
  const newChanged = new Uint8Array(newIds.length + 2);

  let start = 0;
  let oldEnd = oldIds.length;
  let newEnd = newIds.length;
  while (start < oldEnd && start < newEnd && oldIds[start] === newIds[start]) start += 1;
  while (oldEnd > start && newEnd > start && oldIds[oldEnd - 1] === newIds[newEnd - 1]) {
    oldEnd -= 1;
    newEnd -= 1;
  }

  const keep = (ids: Int32Array, end: number, other: Int32Array, changed: Uint8Array) => {
    const kept: number[] = [];
    for (let i = start; i < end; i += 1) {
      if (other[ids[i]!]! > 0) kept.push(i);
      else changed[i + 1] = 1;
    }
    return Int32Array.from(kept);
  };
  const oldIndex = keep(oldIds, oldEnd, newCount, oldChanged);
  const newIndex = keep(newIds, newEnd, oldCount, newChanged);
  const a = oldIndex.map((i) => oldIds[i]!);
  const b = newIndex.map((i) => newIds[i]!);

  compareRanges(
    a,
    b,
    (i) => {
      oldChanged[oldIndex[i]! + 1] = 1;
    },
    (j) => {
      newChanged[newIndex[j]! + 1] = 1;
    },
  );

  slideChangeGroups(oldIds, oldChanged, newChanged, indentLookup(oldLines));
  slideChangeGroups(newIds, newChanged, oldChanged, indentLookup(newLines));
  return {
    oldChanged: oldChanged.subarray(1, oldIds.length + 1),
    newChanged: newChanged.subarray(1, newIds.length + 1),
  };
}

function compareRanges(
  a: Int32Array,
  b: Int32Array,
  markOld: (i: number) => void,
  markNew: (j: number) => void,
): void {
  // Diagonals k = x - y range over [-b.length, a.length]; one extra slot each side for sentinels.
  const offset = b.length + 1;
  const forward = new Int32Array(a.length + b.length + 3);
  const backward = new Int32Array(a.length + b.length + 3);
  const costBound = Math.max(MIN_COST_BOUND, roughSqrt(a.length + b.length + 3));
  const boxes: Box[] = [{ aLo: 0, aHi: a.length, bLo: 0, bHi: b.length, exact: false }];
  for (let box = boxes.pop(); box !== undefined; box = boxes.pop()) {
    let { aLo, aHi, bLo, bHi } = box;
    while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) {
      aLo += 1;
      bLo += 1;
    }
    while (aLo < aHi && bLo < bHi && a[aHi - 1] === b[bHi - 1]) {
      aHi -= 1;
      bHi -= 1;
    }
    if (aLo === aHi) {
      for (let j = bLo; j < bHi; j += 1) markNew(j);
      continue;
    }
    if (bLo === bHi) {
      for (let i = aLo; i < aHi; i += 1) markOld(i);
      continue;
    }
    const split = middleSnake(
      a,
      b,
      { aLo, aHi, bLo, bHi, exact: box.exact },
      forward,
      backward,
      offset,
      costBound,
    );
    const stuck = (split.x === aLo && split.y === bLo) || (split.x === aHi && split.y === bHi);
    if (stuck) {
      // Cannot happen for a true middle snake; a bounded split at a corner would loop forever,
      // so the box is shown as replaced instead (still a correct diff).
      for (let i = aLo; i < aHi; i += 1) markOld(i);
      for (let j = bLo; j < bHi; j += 1) markNew(j);
      continue;
    }
    boxes.push(
      { aLo, aHi: split.x, bLo, bHi: split.y, exact: split.exactBefore },
      { aLo: split.x, aHi, bLo: split.y, bHi, exact: split.exactAfter },
    );
  }
}
