// The figures of `loupe eval report`, from judged runs: pure, so the same files give the same
// report. Precision, recall and F1 are computed per run over all pull requests (counts summed, as
// the benchmark's totals are), then averaged over runs; intervals resample pull requests.

import { bootstrap, type Interval, mean } from "./bootstrap.ts";
import { addCounts, type Counts, scoresOf } from "./matching.ts";

/** One pull request reviewed once and judged. */
export interface JudgedRun {
  readonly key: string;
  readonly run: number;
  readonly counts: Counts;
  readonly findings: number;
  readonly tokens: number;
  /** null when the review's cost is unknown (no prices set and none reported). */
  readonly dollars: number | null;
  readonly seconds: number;
}

type PullRuns = readonly JudgedRun[];
type Metric = "precision" | "recall" | "f1";

function byPull(runs: readonly JudgedRun[]): PullRuns[] {
  const groups = new Map<string, JudgedRun[]>();
  for (const run of runs) groups.set(run.key, [...(groups.get(run.key) ?? []), run]);
  return [...groups.keys()].sort().map((key) => groups.get(key)!);
}

function metricOf(sample: readonly PullRuns[], metric: Metric): number {
  const totals = new Map<number, Counts>();
  for (const pull of sample) {
    for (const run of pull)
      totals.set(run.run, addCounts(totals.get(run.run) ?? { tp: 0, fp: 0, fn: 0 }, run.counts));
  }
  return mean([...totals.values()].map((counts) => scoresOf(counts)[metric]));
}

const perPull = (pull: PullRuns, value: (run: JudgedRun) => number): number => mean(pull.map(value));

export interface VariantReport {
  readonly pulls: number;
  readonly runs: number;
  readonly counts: Counts;
  readonly precision: Interval;
  readonly recall: Interval;
  readonly f1: Interval;
  readonly findings_per_pull: Interval;
  readonly tokens_per_pull: Interval;
  /** null when any run's cost is unknown. */
  readonly dollars_per_pull: Interval | null;
  readonly seconds_per_pull: Interval;
}

export function variantReport(runs: readonly JudgedRun[], seed = 1): VariantReport {
  const pulls = byPull(runs);
  const over = (value: (run: JudgedRun) => number) =>
    bootstrap(pulls, (sample) => mean(sample.map((pull) => perPull(pull, value))), { seed });
  const priced = runs.every((run) => run.dollars !== null);
  return {
    pulls: pulls.length,
    runs: new Set(runs.map((run) => run.run)).size,
    counts: runs.reduce((sum, run) => addCounts(sum, run.counts), { tp: 0, fp: 0, fn: 0 }),
    precision: bootstrap(pulls, (sample) => metricOf(sample, "precision"), { seed }),
    recall: bootstrap(pulls, (sample) => metricOf(sample, "recall"), { seed }),
    f1: bootstrap(pulls, (sample) => metricOf(sample, "f1"), { seed }),
    findings_per_pull: over((run) => run.findings),
    tokens_per_pull: over((run) => run.tokens),
    dollars_per_pull: priced ? over((run) => run.dollars ?? 0) : null,
    seconds_per_pull: over((run) => run.seconds),
  };
}

export interface PullDifference {
  readonly key: string;
  /** The pull request's own F1 (its counts over its runs), A then B. */
  readonly f1_a: number;
  readonly f1_b: number;
  readonly difference: number;
}

export interface Comparison {
  readonly pulls: number;
  readonly per_pull: readonly PullDifference[];
  /** The mean over pull requests of A's F1 minus B's, with its bootstrap interval. */
  readonly mean_f1_difference: Interval;
  /** A minus B of the pooled figures, each resampled on the same pull requests for both. */
  readonly precision_difference: Interval;
  readonly recall_difference: Interval;
  readonly f1_difference: Interval;
}

const pullF1 = (pull: PullRuns): number =>
  scoresOf(pull.reduce((sum, run) => addCounts(sum, run.counts), { tp: 0, fp: 0, fn: 0 })).f1;

/** A paired comparison: only pull requests both variants reviewed, resampled together. */
export function compareVariants(a: readonly JudgedRun[], b: readonly JudgedRun[], seed = 1): Comparison {
  const bPulls = new Map(byPull(b).map((pull) => [pull[0]!.key, pull]));
  const pairs = byPull(a).flatMap((pull) => {
    const other = bPulls.get(pull[0]!.key);
    return other === undefined ? [] : [{ a: pull, b: other }];
  });
  const per_pull = pairs.map(({ a: pa, b: pb }) => ({
    key: pa[0]!.key,
    f1_a: pullF1(pa),
    f1_b: pullF1(pb),
    difference: pullF1(pa) - pullF1(pb),
  }));
  const difference = (metric: Metric) =>
    bootstrap(
      pairs,
      (sample) =>
        metricOf(
          sample.map((p) => p.a),
          metric,
        ) -
        metricOf(
          sample.map((p) => p.b),
          metric,
        ),
      { seed },
    );
  return {
    pulls: pairs.length,
    per_pull,
    mean_f1_difference: bootstrap(per_pull, (sample) => mean(sample.map((d) => d.difference)), { seed }),
    precision_difference: difference("precision"),
    recall_difference: difference("recall"),
    f1_difference: difference("f1"),
  };
}
