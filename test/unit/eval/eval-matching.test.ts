import { describe, expect, it } from "@jest/globals";
import { matchCandidates, type PairVerdict, scoresOf } from "../../../src/eval/matching.ts";

const yes = (golden: number, candidate: number, confidence = 0.9): PairVerdict => ({
  golden,
  candidate,
  match: true,
  confidence,
});
const no = (golden: number, candidate: number): PairVerdict => ({
  golden,
  candidate,
  match: false,
  confidence: 0.9,
});

describe("the benchmark's matching rules, one to one", () => {
  it("counts a duplicate candidate of a matched issue as a false positive", () => {
    // Two candidates describe golden 0; the more confident one takes it, the other is left over.
    const m = matchCandidates(1, 2, [yes(0, 0, 0.8), yes(0, 1, 0.95)]);
    expect(m).toEqual({ pairs: [[0, 1]], tp: 1, fp: 1, fn: 0 });
    expect(scoresOf(m)).toEqual({ precision: 0.5, recall: 1, f1: 2 / 3 });
  });

  it("lets a candidate that matches two goldens count for one only, the most confident", () => {
    const m = matchCandidates(2, 1, [yes(0, 0, 0.7), yes(1, 0, 0.9)]);
    expect(m).toEqual({ pairs: [[1, 0]], tp: 1, fp: 0, fn: 1 });
    expect(scoresOf(m)).toEqual({ precision: 1, recall: 0.5, f1: 2 / 3 });
  });

  it("gives the second golden to another candidate when one broad candidate is taken", () => {
    const m = matchCandidates(2, 2, [yes(0, 0, 0.9), yes(1, 0, 0.9), yes(1, 1, 0.6), no(0, 1)]);
    expect(m.pairs).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect(scoresOf(m).f1).toBe(1);
  });

  it("scores no candidates as zero precision and zero recall, every golden a false negative", () => {
    const m = matchCandidates(3, 0, []);
    expect(m).toEqual({ pairs: [], tp: 0, fp: 0, fn: 3 });
    expect(scoresOf(m)).toEqual({ precision: 0, recall: 0, f1: 0 });
  });

  it("breaks equal confidences by golden then candidate order, and ignores non-matches", () => {
    const verdicts = [yes(1, 0, 0.5), yes(0, 1, 0.5), yes(0, 0, 0.5), no(1, 1)];
    // (0,0) comes first; (0,1) and (1,0) would reuse its golden or its candidate.
    expect(matchCandidates(2, 2, verdicts)).toEqual({ pairs: [[0, 0]], tp: 1, fp: 1, fn: 1 });
  });
});
