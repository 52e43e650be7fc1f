// Parses the operator's environment with one settings schema: an empty value is unset (so
// `.env.example` copied as it is sets nothing), and every problem is collected, not only the
// first, as one line each; the same variable read by two areas is reported once.

import * as v from "valibot";
import { LoupeError } from "../domain/errors.ts";
import type { Env } from "./env-fields.ts";
import { mergeEnvironment } from "./load-env.ts";

export type EnvResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly errors: readonly string[] };

type EnvSchema = v.GenericSchema<Record<string, string>, unknown>;

export function parseEnv<S extends EnvSchema>(schema: S, env: Env): EnvResult<v.InferOutput<S>> {
  // One line per variable: a pipe stops at its first problem, every other variable is still read.
  const parsed = v.safeParse(schema, mergeEnvironment(env, {}), { abortPipeEarly: true });
  if (parsed.success) return { ok: true, value: parsed.output };
  return { ok: false, errors: [...new Set(parsed.issues.map((issue) => issue.message))] };
}

/** The settings, or a configuration error whose message is every problem, one line each. */
export function readEnvOrThrow<S extends EnvSchema>(schema: S, env: Env): v.InferOutput<S> {
  const result = parseEnv(schema, env);
  if (result.ok) return result.value;
  throw new LoupeError("configuration_invalid", result.errors.join("\n"));
}

/** All areas read the whole environment: each takes the variables it names. */
export function fanOut<const K extends string>(keys: readonly K[]) {
  return (env: Record<string, string>) =>
    Object.fromEntries(keys.map((key) => [key, env])) as Record<K, Record<string, string>>;
}
