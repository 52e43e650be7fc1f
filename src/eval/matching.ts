// The benchmark's scoring of one review: every (golden comment, candidate) pair is put to the judge,
// who answers match or not with a confidence. Martian's scorer lets each golden comment take its
// most confident matching candidate. Loupe applies the same question and confidence order, with one
// rule made strict both ways: a golden comment is matched at most once and a candidate matches at
// most one golden comment (pairs are taken by descending confidence, then golden order, then
// candidate order). So a duplicate candidate of an already-matched issue is a false positive, and
// one broad candidate cannot count as two true positives.

export interface PairVerdict {
  readonly golden: number;
  readonly candidate: number;
  readonly match: boolean;
  readonly confidence: number;
}

export interface Matching {
  /** [golden index, candidate index] of each true positive. */
  readonly pairs: readonly (readonly [number, number])[];
  readonly tp: number;
  /** Candidates that matched no golden comment. */
  readonly fp: number;
  /** Golden comments no candidate matched. */
  readonly fn: number;
}

export function matchCandidates(
  goldens: number,
  candidates: number,
  verdicts: readonly PairVerdict[],
): Matching {
  const ordered = verdicts
    .filter((v) => v.match && v.golden < goldens && v.candidate < candidates)
    .toSorted((a, b) => b.confidence - a.confidence || a.golden - b.golden || a.candidate - b.candidate);
  const usedGolden = new Set<number>();
  const usedCandidate = new Set<number>();
  const pairs: [number, number][] = [];
  for (const verdict of ordered) {
    if (usedGolden.has(verdict.golden) || usedCandidate.has(verdict.candidate)) continue;
    usedGolden.add(verdict.golden);
    usedCandidate.add(verdict.candidate);
    pairs.push([verdict.golden, verdict.candidate]);
  }
  return { pairs, tp: pairs.length, fp: candidates - pairs.length, fn: goldens - pairs.length };
}

export interface Counts {
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
}

export interface Scores {
  /** TP / (TP + FP); 0 when there is no candidate (the benchmark's convention). */
  readonly precision: number;
  /** TP / (TP + FN); 0 when there is no golden comment. */
  readonly recall: number;
  /** The harmonic mean of the two; 0 when both are 0. */
  readonly f1: number;
}

export function scoresOf(counts: Counts): Scores {
  const precision = counts.tp + counts.fp === 0 ? 0 : counts.tp / (counts.tp + counts.fp);
  const recall = counts.tp + counts.fn === 0 ? 0 : counts.tp / (counts.tp + counts.fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

export function addCounts(a: Counts, b: Counts): Counts {
  return { tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn };
}
