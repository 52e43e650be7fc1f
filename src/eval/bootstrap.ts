// Bootstrap intervals over pull requests, seeded so that a report is the same every time it is
// computed from the same files. The unit resampled is the pull request (its runs stay together),
// because pull requests, not runs, are the sample the benchmark draws from the world.

/** mulberry32: a small, well-known 32-bit generator; plenty for resampling indices. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Interval {
  readonly estimate: number;
  readonly low: number;
  readonly high: number;
}

export interface BootstrapOptions {
  readonly resamples?: number;
  readonly seed?: number;
}

/** The value at quantile q of sorted values (linear interpolation, as numpy's default). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

/**
 * The statistic on the whole sample, and the 2.5 % and 97.5 % percentiles of the statistic over
 * resamples of the units with replacement.
 */
export function bootstrap<T>(
  units: readonly T[],
  statistic: (sample: readonly T[]) => number,
  options: BootstrapOptions = {},
): Interval {
  const estimate = statistic(units);
  if (units.length === 0) return { estimate, low: estimate, high: estimate };
  const random = seededRandom(options.seed ?? 1);
  const values: number[] = [];
  for (let r = 0; r < (options.resamples ?? 2000); r++) {
    const sample = Array.from({ length: units.length }, () => units[Math.floor(random() * units.length)]!);
    values.push(statistic(sample));
  }
  values.sort((a, b) => a - b);
  return { estimate, low: quantile(values, 0.025), high: quantile(values, 0.975) };
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((sum, x) => sum + x, 0) / values.length;
}
