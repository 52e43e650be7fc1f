// `.github/loupe.yml`, read from the default branch (so a pull request cannot change how it is
// reviewed): YAML 1.2 with no anchors, aliases or tags, then the one schema (repo-config-schema.ts).
// Errors carry their dotted path and are shown on the check run.

import * as v from "valibot";
import { isAlias, isNode, parseDocument, visit } from "yaml";
import { defaultRepoConfig, type RepoConfig, RepoConfigSchema } from "./repo-config-schema.ts";

export const REPO_CONFIG_PATH = ".github/loupe.yml";
export const MAX_CONFIG_BYTES = 64 * 1024;

/** One problem of a file: where, what, and the value found there (for a wrong value). */
export interface RepoConfigError {
  path: string;
  message: string;
  /** The value as written, JSON, cut to VALUE_CHARS: the person sees what was read. */
  value?: string;
}

const VALUE_CHARS = 80;

type Errors = RepoConfigError[];

/** One layer's file, validated, with the top-level keys it sets (the rest are the defaults). */
export type ConfigLayerResult =
  | { ok: true; config: RepoConfig; keys: readonly string[] }
  | { ok: false; errors: RepoConfigError[] };

/** A repository's file, validated: the same as any layer's. */
export type RepoConfigResult = ConfigLayerResult;

export function parseRepoConfig(yamlText: string | null): RepoConfigResult {
  return parseConfigLayer(yamlText);
}

export function parseConfigLayer(yamlText: string | null): ConfigLayerResult {
  if (yamlText === null) return { ok: true, config: defaultRepoConfig(), keys: [] };
  if (Buffer.byteLength(yamlText, "utf8") > MAX_CONFIG_BYTES) {
    return fail("(file)", `is larger than ${MAX_CONFIG_BYTES / 1024} KiB`);
  }
  const doc = parseDocument(yamlText, {
    version: "1.2",
    schema: "core",
    uniqueKeys: true,
    prettyErrors: true,
  });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      errors: doc.errors.slice(0, 10).map((e) => ({ path: "(yaml)", message: firstLine(e.message) })),
    };
  }
  const structural: Errors = [];
  visit(doc, {
    Node(_key, node) {
      if (isAlias(node))
        structural.push({ path: "(yaml)", message: "anchors and aliases (*name) are not supported" });
      else if (isNode(node) && typeof node.tag === "string") {
        structural.push({
          path: "(yaml)",
          message: `explicit tags (${node.tag.slice(0, 40)}) are not supported`,
        });
      }
    },
  });
  if (structural.length > 0) return { ok: false, errors: structural.slice(0, 10) };
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 0 });
  } catch {
    return fail("(yaml)", "could not be read as plain data");
  }
  if (data === null || data === undefined) return { ok: true, config: defaultRepoConfig(), keys: [] }; // empty file
  if (typeof data !== "object" || Array.isArray(data))
    return fail("(root)", "must be a mapping of keys to values");
  const parsed = v.safeParse(RepoConfigSchema, data);
  if (!parsed.success) {
    return { ok: false, errors: parsed.issues.slice(0, 20).map((issue) => toError(issue)) };
  }
  return { ok: true, config: parsed.output, keys: Object.keys(data) };
}

function toError(issue: v.BaseIssue<unknown>): RepoConfigError {
  const path = v.getDotPath(issue) ?? "(root)";
  if (issue.type === "strict_object" && issue.kind === "schema") {
    return { path, message: "is not a known key" };
  }
  const message = issue.message.replace(/^Invalid (?:type|value|length): /, "");
  const written = JSON.stringify(issue.input);
  if (written === undefined) return { path, message };
  const value = written.length > VALUE_CHARS ? `${written.slice(0, VALUE_CHARS)}…` : written;
  return { path, message, value };
}

function fail(path: string, message: string): ConfigLayerResult {
  return { ok: false, errors: [{ path, message }] };
}

function firstLine(message: string): string {
  return message.split("\n")[0]!.replace(/:$/, "").slice(0, 300);
}
