// The operator's environment: the process environment plus an optional `.env` file. An empty
// value means "unset" (so `.env.example` copied as it is sets nothing), and a non-empty value in
// the process environment wins over the file, so a container's variables are never overridden by
// a stale `.env` baked into the image.

import fs from "node:fs";
import { parseEnv } from "node:util";
import { LoupeError } from "../domain/errors.ts";

export type Env = Readonly<Record<string, string>>;

/** Reads `path` (absent: nothing) and merges it under `processEnv`; every value is non-empty. */
export function loadEnvironment(processEnv: NodeJS.ProcessEnv, path: string): Env {
  let text = "";
  try {
    text = fs.readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      throw new LoupeError("configuration_invalid", `${path} could not be read: ${String(error)}`);
    }
  }
  return mergeEnvironment(processEnv, parseEnv(text));
}

export function mergeEnvironment(
  processEnv: Readonly<Record<string, string | undefined>>,
  fileEnv: Readonly<Record<string, string | undefined>>,
): Env {
  const env: Record<string, string> = {};
  for (const source of [fileEnv, processEnv]) {
    for (const [name, value] of Object.entries(source)) {
      if (value !== undefined && value.trim() !== "") env[name] = value;
    }
  }
  return env;
}
