// valibot argument schemas are the single source of truth: the JSON Schema advertised to the
// model is generated from them, and parsing uses the same schema (so they cannot drift).

import { toJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import type { ArgumentRejection } from "./types.ts";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * to-json-schema writes `nullable(T)` as `anyOf: [T, {type: "null"}]`; the protocol's schemas use
 * the equivalent compact form `type: [T, "null"]`, so a two-branch anyOf of that shape is folded.
 */
function foldNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(foldNullable);
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = foldNullable(value);
  const branches = out.anyOf;
  if (Array.isArray(branches) && branches.length === 2) {
    const [first, second] = branches;
    const isNull = (branch: unknown) =>
      isObject(branch) && branch.type === "null" && Object.keys(branch).length === 1;
    if (isObject(first) && typeof first.type === "string" && isNull(second)) {
      const { anyOf: _folded, ...rest } = out;
      return { ...first, type: [first.type, "null"], ...rest };
    }
  }
  return out;
}

export function toModelParameters(schema: v.GenericSchema): Json {
  const { $schema: _dialect, ...parameters } = toJsonSchema(schema) as Json;
  return foldNullable(parameters) as Json;
}

/** Strict parse with defaults applied; the message names every offending argument. */
export function parseWith<S extends v.GenericSchema>(
  schema: S,
  raw: unknown,
): { readonly ok: true; readonly args: v.InferOutput<S> } | ArgumentRejection {
  // valibot's object schemas accept arrays (typeof [] is "object"); a tool's arguments never are.
  if (Array.isArray(raw))
    return { ok: false, message: "Invalid arguments: Invalid type: Expected Object but received Array" };
  const parsed = v.safeParse(schema, raw);
  if (parsed.success) return { ok: true, args: parsed.output };
  const details = parsed.issues.map((issue) => {
    const at = v.getDotPath(issue);
    return at === null ? issue.message : `${at}: ${issue.message}`;
  });
  return { ok: false, message: `Invalid arguments: ${details.join("; ")}` };
}
