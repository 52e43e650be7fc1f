// The options of `loupe eval <step>`: each step takes exactly its own, every value given once.

import { LoupeError } from "../domain/errors.ts";

/** Each step's options: `required` and `optional` take values, `switches` take none. */
export const EVAL_STEPS = {
  prepare: { required: ["--golden", "--out"], optional: [], switches: [] },
  run: { required: ["--manifest", "--variant", "--out"], optional: ["--variants", "--runs"], switches: [] },
  judge: { required: ["--results", "--manifest"], optional: [], switches: [] },
  report: { required: ["--results"], optional: ["--compare"], switches: ["--json"] },
} as const;

export type EvalStep = keyof typeof EVAL_STEPS;

export function isEvalStep(name: string | undefined): name is EvalStep {
  return name !== undefined && Object.hasOwn(EVAL_STEPS, name);
}

/** Option name (without dashes) to its values; `--compare` takes two, a switch none. */
export type EvalArgs = Readonly<Record<string, readonly string[]>>;

export function parseEvalArgs(step: EvalStep, argv: readonly string[]): EvalArgs {
  const { required, optional, switches } = EVAL_STEPS[step];
  const known: readonly string[] = [...required, ...optional, ...switches];
  const values: Record<string, string[]> = {};
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index] ?? "";
    if (!known.includes(flag)) {
      throw new LoupeError("usage_invalid", `unknown option ${JSON.stringify(flag)} for loupe eval ${step}`);
    }
    if ((switches as readonly string[]).includes(flag)) {
      values[flag.slice(2)] = [];
      continue;
    }
    const arity = flag === "--compare" ? 2 : 1;
    const taken = argv.slice(index + 1, index + 1 + arity);
    if (taken.length < arity || taken.some((value) => value.startsWith("--"))) {
      throw new LoupeError("usage_invalid", `${flag} needs ${arity === 2 ? "two values" : "a value"}`);
    }
    values[flag.slice(2)] = taken;
    index += arity;
  }
  for (const flag of required) {
    if (values[flag.slice(2)] === undefined)
      throw new LoupeError("usage_invalid", `loupe eval ${step} needs ${flag}`);
  }
  return values;
}

/** The one value of an option the step requires. */
export const one = (args: EvalArgs, name: string): string => args[name]![0]!;

export function positiveInteger(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1 || n > 100) {
    throw new LoupeError("usage_invalid", `--${name} must be an integer from 1 to 100`);
  }
  return n;
}
