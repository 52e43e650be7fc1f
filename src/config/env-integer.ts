// Reads one positive-integer environment variable against its hard cap. Invalid values are a
// configuration error naming the variable, never a silent fallback to the default.

import { LoupeError } from "../domain/errors.ts";

export function readPositiveInteger(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  fallback: number,
  cap: number,
): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const text = raw.trim();
  if (!/^[0-9]+$/.test(text)) {
    throw new LoupeError(
      "configuration_invalid",
      `${name} must be a positive integer (got a non-integer value)`,
    );
  }
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new LoupeError("configuration_invalid", `${name} must be a positive integer`);
  }
  if (value > cap) {
    throw new LoupeError("configuration_invalid", `${name} must be at most ${cap} (got ${value})`);
  }
  return value;
}
