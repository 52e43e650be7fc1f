// `loupe eval report` for a person: one row a variant (scores with their 95 % intervals, the cost
// of a pull request, the golden set beside every score), then the paired difference, marked "not
// significant" when its interval contains 0. Pure: figures in, text out.

import type { Interval } from "./bootstrap.ts";
import {
  type ComparisonFigures,
  includesZero,
  type ReportFigures,
  type VariantFigures,
} from "./report-figures.ts";

const score = (x: number): string => x.toFixed(2);
const signed = (x: number): string => `${x > 0 ? "+" : x < 0 ? "-" : " "}${Math.abs(x).toFixed(2)}`;
const interval = (i: Interval, show: (x: number) => string): string =>
  `${show(i.estimate)} [${show(i.low)}, ${show(i.high)}]`;

function dollars(i: Interval | null): string {
  if (i === null) return "unknown";
  const value = i.estimate;
  return value >= 1 ? `$${value.toFixed(2)}` : `$${value.toPrecision(2)}`;
}

const GOLDEN_UNKNOWN = "unknown";

function variantRow(name: string, v: VariantFigures): string[] {
  return [
    name,
    v.golden_set ?? GOLDEN_UNKNOWN,
    String(v.pulls),
    String(v.runs),
    interval(v.precision, score),
    interval(v.recall, score),
    interval(v.f1, score),
    Math.round(v.tokens_per_pull.estimate).toLocaleString("en-US"),
    dollars(v.dollars_per_pull),
    (v.seconds_per_pull.estimate / 60).toFixed(1),
  ];
}

const HEADER = [
  "variant",
  "golden set",
  "PRs",
  "runs",
  "precision",
  "recall",
  "F1",
  "tokens/PR",
  "$/PR",
  "min/PR",
];
/** Columns aligned right: the counts and the cost. */
const RIGHT = new Set([2, 3, 7, 8, 9]);

/** Columns padded to their widest cell, two spaces apart. */
export function alignColumns(rows: readonly (readonly string[])[], right: ReadonlySet<number>): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => [...row[column]!].length)));
  return rows.map((row) =>
    row
      .map((cell, column) => {
        const pad = " ".repeat(widths[column]! - [...cell].length);
        return right.has(column) ? pad + cell : cell + pad;
      })
      .join("  ")
      .trimEnd(),
  );
}

function comparisonLines(c: ComparisonFigures): string[] {
  const golden = c.golden_set ?? GOLDEN_UNKNOWN;
  const rows = (
    [
      ["precision", c.precision_difference],
      ["recall", c.recall_difference],
      ["F1", c.f1_difference],
      ["mean F1 of a PR", c.mean_f1_difference],
    ] as const
  ).map(([name, i]) => [name, interval(i, signed), includesZero(i) ? "not significant" : ""]);
  return [
    `${c.a} minus ${c.b}, paired on ${c.pulls} pull requests (golden set ${golden}):`,
    ...alignColumns(rows, new Set()).map((line) => `  ${line}`),
  ];
}

export function reportTable(figures: ReportFigures): string {
  const rows = Object.entries(figures.variants).map(([name, v]) => variantRow(name, v));
  const lines = [
    ...alignColumns([HEADER, ...rows], RIGHT),
    "",
    "Scores are estimates [95 % interval over the pull requests]; compare them only on the same golden set.",
  ];
  if (figures.comparison !== undefined) lines.push("", ...comparisonLines(figures.comparison));
  return `${lines.join("\n")}\n`;
}
