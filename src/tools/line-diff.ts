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
  /** The lines of each side's middle (between the common ends) as integers, equal for equal lines. */
  readonly oldIds: Int32Array;
  readonly newIds: Int32Array;
  /** Per id: does the line occur anywhere on the old (new) side, common ends included. */
  readonly onOld: Uint8Array;
  readonly onNew: Uint8Array;
}

/**
 * Interns only the middles: the common ends, usually most of a file, are never hashed. A line of
 * one middle that is not in the other middle may still be in the common ends (on both sides
 * alike); only such lines' lengths are looked for there, so the answer is the whole files' one.
 */
function internMiddles(
  oldLines: readonly string[],
  newLines: readonly string[],
  start: number,
  oldEnd: number,
  newEnd: number,
): Interned {
  const ids = new Map<string, number>();
  const idOf = (line: string): number => {
    let id = ids.get(line);
    if (id === undefined) {
      id = ids.size;
      ids.set(line, id);
    }
    return id;
  };
  const oldIds = new Int32Array(oldEnd - start);
  for (let i = start; i < oldEnd; i += 1) oldIds[i - start] = idOf(oldLines[i]!);
  const newIds = new Int32Array(newEnd - start);
  for (let j = start; j < newEnd; j += 1) newIds[j - start] = idOf(newLines[j]!);
  const onOld = new Uint8Array(ids.size);
  const onNew = new Uint8Array(ids.size);
  for (const id of oldIds) onOld[id] = 1;
  for (const id of newIds) onNew[id] = 1;

  const lonelyLengths = new Set<number>();
  for (const [line, id] of ids) if (onOld[id] !== onNew[id]) lonelyLengths.add(line.length);
  if (lonelyLengths.size > 0) {
    const markCommon = (line: string) => {
      if (!lonelyLengths.has(line.length)) return;
      const id = ids.get(line);
      if (id !== undefined) {
        onOld[id] = 1;
        onNew[id] = 1;
      }
    };
    for (let i = 0; i < start; i += 1) markCommon(oldLines[i]!);
    for (let i = oldEnd; i < oldLines.length; i += 1) markCommon(oldLines[i]!);
  }
  return { oldIds, newIds, onOld, onNew };
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
  // Sentinels at both ends (index 0 and length + 1) make the group walks below branch-free.
  const oldChanged = new Uint8Array(oldLines.length + 2);
  const newChanged = new Uint8Array(newLines.length + 2);

  let start = 0;
  let oldEnd = oldLines.length;
  let newEnd = newLines.length;
  while (start < oldEnd && start < newEnd && oldLines[start] === newLines[start]) start += 1;
  while (oldEnd > start && newEnd > start && oldLines[oldEnd - 1] === newLines[newEnd - 1]) {
    oldEnd -= 1;
    newEnd -= 1;
  }

  if (start === oldEnd || start === newEnd) {
    // One middle is empty (an added or deleted file, lines only inserted or only removed): every
    // line of the other middle changed, with nothing to search.
    for (let i = start; i < oldEnd; i += 1) oldChanged[i + 1] = 1;
    for (let j = start; j < newEnd; j += 1) newChanged[j + 1] = 1;
  } else {
    compareMiddles(internMiddles(oldLines, newLines, start, oldEnd, newEnd), start, oldChanged, newChanged);
  }

  slideChangeGroups(oldLines, oldChanged, newChanged, indentLookup(oldLines));
  slideChangeGroups(newLines, newChanged, oldChanged, indentLookup(newLines));
  return {
    oldChanged: oldChanged.subarray(1, oldLines.length + 1),
    newChanged: newChanged.subarray(1, newLines.length + 1),
  };
}

/** Marks what changed between the middles; `start` is where they begin in the whole files. */
function compareMiddles(
  { oldIds, newIds, onOld, onNew }: Interned,
  start: number,
  oldChanged: Uint8Array,
  newChanged: Uint8Array,
): void {
  // A line that the other side does not have at all is changed; only the rest is searched.
  const keep = (ids: Int32Array, onOther: Uint8Array, changed: Uint8Array) => {
    const kept: number[] = [];
    for (let i = 0; i < ids.length; i += 1) {
      if (onOther[ids[i]!] === 1) kept.push(i);
      else changed[start + i + 1] = 1;
    }
    return Int32Array.from(kept);
  };
  const oldIndex = keep(oldIds, onNew, oldChanged);
  const newIndex = keep(newIds, onOld, newChanged);
  const a = oldIndex.map((i) => oldIds[i]!);
  const b = newIndex.map((i) => newIds[i]!);

  compareRanges(
    a,
    b,
    (i) => {
      oldChanged[start + oldIndex[i]! + 1] = 1;
    },
    (j) => {
      newChanged[start + newIndex[j]! + 1] = 1;
    },
  );
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
