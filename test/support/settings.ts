// Reads one settings schema from an environment as Loupe does (src/config/read-env.ts): the value,
// or the error lines; asking for the other one fails the test.

import type * as v from "valibot";
import { parseEnv } from "../../src/config/read-env.ts";

type EnvSchema = v.GenericSchema<Record<string, string>, unknown>;
type Env = Readonly<Record<string, string | undefined>>;

export function settingsOf<S extends EnvSchema>(schema: S, env: Env): v.InferOutput<S> {
  const result = parseEnv(schema, env);
  if (!result.ok) throw new Error(`expected settings, got:\n${result.errors.join("\n")}`);
  return result.value;
}

export function settingsErrors(schema: EnvSchema, env: Env): readonly string[] {
  const result = parseEnv(schema, env);
  if (result.ok) throw new Error("expected settings errors");
  return result.errors;
}

/** The only error line; fails when there are none or several. */
export function settingsError(schema: EnvSchema, env: Env): string {
  const errors = settingsErrors(schema, env);
  if (errors.length !== 1) throw new Error(`expected one error, got:\n${errors.join("\n")}`);
  return errors[0]!;
}
