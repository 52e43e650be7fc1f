// What `loupe eval report` says, before it is a table or JSON: each variant's figures with the
// golden set they were judged against, and the paired comparison. Numbers are rounded for people
// and machines alike: a bootstrap interval is not known to 16 digits.

import type { Interval } from "./bootstrap.ts";
import type { Comparison, VariantReport } from "./scores.ts";

export interface VariantFigures extends VariantReport {
  /** The golden set's content hash, or null for files judged before Loupe kept it. */
  readonly golden_set: string | null;
}

export interface ComparisonFigures extends Comparison {
  readonly a: string;
  readonly b: string;
  readonly golden_set: string | null;
}

export interface ReportFigures {
  readonly variants: Readonly<Record<string, VariantFigures>>;
  readonly comparison?: ComparisonFigures;
}

/** Whole numbers stay; from 100 up, to the unit; below, four significant digits. */
export function roundFigure(value: number): number {
  if (!Number.isFinite(value) || Number.isInteger(value)) return value;
  if (Math.abs(value) >= 100) return Math.round(value);
  return Number(value.toPrecision(4));
}

/** The same figures, every number rounded (roundFigure). */
export function roundFigures<T>(value: T): T {
  if (typeof value === "number") return roundFigure(value) as T;
  if (Array.isArray(value)) return value.map(roundFigures) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, roundFigures(v)])) as T;
  }
  return value;
}

/** An interval contains 0: the runs do not show a difference. */
export const includesZero = (interval: Interval): boolean => interval.low <= 0 && interval.high >= 0;
