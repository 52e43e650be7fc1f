// How deep the generated-input (property) suites go, from the environment: LOUPE_PROPERTY_RUNS
// cases (1,000 by default; `npm run check` runs the deep 10,000), from a seed that changes with
// every run so that runs over time cover more than one sequence. LOUPE_PROPERTY_SEED replays a
// run: every failure message names it.

/** The cases of a deep run (`npm run check`). */
export const DEEP_PROPERTY_RUNS = 10_000;
const DEFAULT_PROPERTY_RUNS = 1_000;

function integerFromEnv(name: string): number | undefined {
  const text = process.env[name]?.trim();
  if (text === undefined || text === "") return undefined;
  if (!/^[0-9]+$/.test(text) || Number(text) < 1 || Number(text) > 2 ** 32 - 1)
    throw new Error(`${name}=${JSON.stringify(text)} is not an integer from 1 to ${2 ** 32 - 1}`);
  return Number(text);
}

/** Cases per property: LOUPE_PROPERTY_RUNS, or 1,000. */
export const PROPERTY_RUNS = integerFromEnv("LOUPE_PROPERTY_RUNS") ?? DEFAULT_PROPERTY_RUNS;

/** This run's seed: LOUPE_PROPERTY_SEED, or a new one each run. */
export const PROPERTY_SEED = integerFromEnv("LOUPE_PROPERTY_SEED") ?? 1 + Math.floor(Math.random() * 2 ** 31);

/** A property's own seed in this run (its offset keeps properties on different sequences). */
export function propertySeed(offset: number): number {
  return (PROPERTY_SEED + offset) >>> 0;
}

/** How to replay this run, for failure messages. */
export const REPLAY = `LOUPE_PROPERTY_SEED=${PROPERTY_SEED} LOUPE_PROPERTY_RUNS=${PROPERTY_RUNS}`;
