import { describe, expect, it } from "@jest/globals";
import { bootstrap, mean, quantile, seededRandom } from "../../../src/eval/bootstrap.ts";
import { compareVariants, type JudgedRun, variantReport } from "../../../src/eval/scores.ts";

const run = (
  key: string,
  n: number,
  tp: number,
  fp: number,
  fn: number,
  extra: Partial<JudgedRun> = {},
): JudgedRun => ({
  key,
  run: n,
  counts: { tp, fp, fn },
  findings: tp + fp,
  tokens: 1000,
  dollars: 0.01,
  seconds: 10,
  ...extra,
});

describe("seeded bootstrap", () => {
  it("is deterministic for a seed and differs between seeds", () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const first = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(first);
    expect(Array.from({ length: 5 }, seededRandom(8))).not.toEqual(first);
    for (const x of first) expect(x >= 0 && x < 1).toBe(true);
  });

  it("interpolates quantiles as numpy does", () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4], 0)).toBe(1);
    expect(quantile([1, 2, 3, 4], 1)).toBe(4);
  });

  it("brackets the mean, collapses on a constant sample and repeats exactly", () => {
    const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const interval = bootstrap(values, mean, { seed: 3 });
    expect(interval.estimate).toBe(5.5);
    expect(interval.low).toBeLessThan(5.5);
    expect(interval.high).toBeGreaterThan(5.5);
    expect(interval.low).toBeGreaterThan(2);
    expect(bootstrap(values, mean, { seed: 3 })).toEqual(interval);
    expect(bootstrap([4, 4, 4], mean)).toEqual({ estimate: 4, low: 4, high: 4 });
  });
});

describe("the report's figures", () => {
  it("pools counts over pull requests per run, then averages runs", () => {
    // Run 1: tp 2, fp 2, fn 0 → P 0.5, R 1. Run 2: tp 1, fp 0, fn 1 → P 1, R 0.5.
    const runs = [run("a", 1, 1, 1, 0), run("b", 1, 1, 1, 0), run("a", 2, 1, 0, 0), run("b", 2, 0, 0, 1)];
    const report = variantReport(runs);
    expect(report.pulls).toBe(2);
    expect(report.runs).toBe(2);
    expect(report.precision.estimate).toBeCloseTo(0.75);
    expect(report.recall.estimate).toBeCloseTo(0.75);
    expect(report.f1.estimate).toBeCloseTo((2 / 3 + 2 / 3) / 2);
    expect(report.findings_per_pull.estimate).toBeCloseTo(1.25);
    expect(report.dollars_per_pull?.estimate).toBeCloseTo(0.01);
    expect(variantReport([run("a", 1, 1, 0, 0, { dollars: null })]).dollars_per_pull).toBeNull();
  });

  it("compares two variants on the pull requests both reviewed, A minus B", () => {
    const a = [run("a", 1, 1, 0, 0), run("b", 1, 1, 0, 0), run("c", 1, 1, 0, 0)];
    const b = [run("a", 1, 0, 1, 1), run("b", 1, 1, 0, 0)];
    const comparison = compareVariants(a, b);
    expect(comparison.pulls).toBe(2);
    expect(comparison.per_pull).toEqual([
      { key: "a", f1_a: 1, f1_b: 0, difference: 1 },
      { key: "b", f1_a: 1, f1_b: 1, difference: 0 },
    ]);
    expect(comparison.mean_f1_difference.estimate).toBe(0.5);
    expect(comparison.mean_f1_difference.low).toBeGreaterThanOrEqual(0);
    expect(comparison.mean_f1_difference.high).toBeLessThanOrEqual(1);
    expect(comparison.f1_difference.estimate).toBeCloseTo(1 - 0.5);
    expect(compareVariants(a, b)).toEqual(comparison);
  });
});
