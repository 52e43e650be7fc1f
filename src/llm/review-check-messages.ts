// Loupe's own words for each check a final review can fail, e.g.
// `findings[2].path: no such file in the head commit`. They are built from the schema and the
// repository only: the model's values appear in them only quoted and cut short (a key it invented,
// the path it gave), so they can be published on the check run and sent back in a repair request.

import type * as v from "valibot";
import type { ToolErrorCode } from "../tools/types.ts";
import { MAX_TEXT_BYTES } from "./final-review-schema.ts";

/** At most this many failed checks are listed; the rest are counted. */
export const MAX_LISTED_FAILURES = 20;
const MAX_KEY_CHARS = 40;

/** `findings[2].path` from valibot's issue path; odd keys are JSON-quoted and cut short. */
export function formatIssuePath(path: readonly { key: unknown }[] | undefined): string {
  if (path === undefined || path.length === 0) return "(root)";
  let out = "";
  for (const { key } of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (typeof key === "string" && /^[A-Za-z_][A-Za-z0-9_]{0,39}$/.test(key))
      out += out === "" ? key : `.${key}`;
    else {
      const text = String(key);
      const cut = text.length > MAX_KEY_CHARS ? `${text.slice(0, MAX_KEY_CHARS)}…` : text;
      out += `[${JSON.stringify(cut)}]`;
    }
  }
  return out;
}

export function schemaIssueMessage(issue: v.BaseIssue<unknown>): string {
  const at = formatIssuePath(issue.path as { key: unknown }[] | undefined);
  return `${at}: ${describeIssue(issue, at)}`;
}

function describeIssue(issue: v.BaseIssue<unknown>, at: string): string {
  const count = typeof issue.received === "string" && /^\d+$/.test(issue.received) ? issue.received : null;
  switch (issue.type) {
    case "strict_object":
      if (issue.expected === "never")
        return "is not a field of the final review (no additional fields are allowed)";
      if (issue.received === "undefined") return "is missing (a required field)";
      return "must be a JSON object";
    case "object":
      return "must be a JSON object";
    case "string":
      return "must be a string";
    case "number":
      return /\.(end_)?line$/.test(at) ? "must be a positive whole number or null" : "must be a number";
    case "array":
      return "must be an array";
    case "picklist":
      return "must be one of critical, high, medium, low, info";
    case "integer":
      return "must be a whole number";
    case "min_value":
      return "must be at least 1";
    case "min_length":
      return "must not be empty";
    case "max_length":
      return /^(findings|notes)$/.test(at)
        ? `has ${count ?? "too many"} items; at most ${String(issue.requirement)} are allowed`
        : `is longer than ${String(issue.requirement)} characters`;
    case "max_bytes":
      return `is ${count ?? "too many"} bytes of UTF-8; at most ${MAX_TEXT_BYTES} are allowed`;
    default:
      return "does not match the final review schema";
  }
}

const PATH_PROBLEMS: Partial<Record<ToolErrorCode, string>> = {
  path_not_found: "no such file in the head commit",
  invalid_path: "is not a repository-relative path (no leading /, backslash, NUL, .. or .git)",
  path_outside_repository: "resolves outside the repository",
  path_is_directory: "is a directory, not a file",
  not_a_regular_file: "is not a regular file (a submodule or a symlink)",
  binary_file: "is a binary or non-UTF-8 file, not a text file",
  file_too_large: "is too large for Loupe to read",
  symlink_loop: "follows too many symlinks",
};

/** @param shown the path the model gave, already cut short: the operator must see what was wrong. */
export function pathProblem(index: number, code: ToolErrorCode, shown: string): string {
  const problem = PATH_PROBLEMS[code] ?? "could not be read in the head commit";
  return `findings[${index}].path: ${problem} (got ${JSON.stringify(shown)})`;
}

/** Caps a list of failures, counting the ones left out. */
export function capFailures(failures: readonly string[]): string[] {
  if (failures.length <= MAX_LISTED_FAILURES) return [...failures];
  const more = failures.length - MAX_LISTED_FAILURES;
  return [
    ...failures.slice(0, MAX_LISTED_FAILURES),
    `… and ${more} more failed check${more === 1 ? "" : "s"}`,
  ];
}
