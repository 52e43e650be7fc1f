// git's rename score matrix bookkeeping (diffcore-rename.c): per destination, the four best
// sources seen so far (record_if_better), then every kept score sorted best first
// (score_compare). A large matrix offers millions of pairs, so a row remembers its worst slot and
// a pair that cannot beat it costs one comparison and no allocation.

export interface Score {
  readonly source: number;
  /** Index among the destinations, or -1 for an empty slot. */
  readonly destination: number;
  readonly score: number;
  readonly nameScore: number;
}

/** git keeps this many best sources per destination. */
const SLOTS = 4;
const EMPTY: Score = { source: -1, destination: -1, score: 0, nameScore: 0 };

/** git's score_compare: best first (higher score, then same base name), empty slots last. */
export function compareScores(a: Score, b: Score): number {
  if (a.destination < 0) return b.destination >= 0 ? 1 : 0;
  if (b.destination < 0) return -1;
  if (a.score === b.score) return b.nameScore - a.nameScore;
  return b.score - a.score;
}

export interface Row {
  readonly slots: Score[];
  /** The slot git's record_if_better would replace next: the first of the worst. */
  worst: number;
}

export function newRow(): Row {
  return { slots: Array.from({ length: SLOTS }, () => EMPTY), worst: 0 };
}

/** git's record_if_better: the pair replaces the worst slot when it beats it. */
export function offer(row: Row, source: number, destination: number, score: number, nameScore: number): void {
  const current = row.slots[row.worst]!;
  const beats =
    current.destination < 0 ||
    current.score < score ||
    (current.score === score && current.nameScore < nameScore);
  if (!beats) return;
  row.slots[row.worst] = { source, destination, score, nameScore };
  let worst = 0;
  for (let i = 1; i < SLOTS; i += 1) if (compareScores(row.slots[i]!, row.slots[worst]!) > 0) worst = i;
  row.worst = worst;
}
