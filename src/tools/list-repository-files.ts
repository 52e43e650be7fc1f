// list_repository_files: the files under one directory of the head commit in lexical order,
// paged by a cursor (the last path of the preceding page). Symlinks are listed under their own
// path when they resolve inside the repository, never descended into; submodules, .git and
// symlinks that resolve outside (or nowhere) are skipped.

import * as v from "valibot";
import { checkRepositoryPath, isGitSegment } from "../workspace/safe-path.ts";
import { lowerBound } from "../workspace/sorted-entries.ts";
import type { TreeEntry } from "../workspace/types.ts";
import { defineTool, type ToolContext } from "./definition.ts";
import { resolvePath } from "./resolve-path.ts";
import { failure, isFailure, jsonStringLength, utf8Length } from "./result.ts";
import type { ToolResult } from "./types.ts";

export const ListRepositoryFilesArgs = v.strictObject({
  path: v.optional(v.pipe(v.string(), v.description("Repository-relative directory; empty means root.")), ""),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200)), 100),
  cursor: v.optional(
    v.pipe(v.nullable(v.string()), v.description("Last path returned by the preceding page.")),
    null,
  ),
});
type Args = v.InferOutput<typeof ListRepositoryFilesArgs>;

async function isListable(entry: TreeEntry, context: ToolContext): Promise<boolean> {
  if (entry.mode === "submodule") return false;
  if (entry.path.split("/").some(isGitSegment)) return false;
  if (entry.mode !== "symlink") return true;
  const target = await resolvePath(
    { snapshot: context.view.head, objects: context.view.objects },
    entry.path,
  );
  return !isFailure(target);
}

async function run(args: Args, context: ToolContext): Promise<ToolResult> {
  const { view, limits } = context;
  const checked = checkRepositoryPath(args.path, { allowEmpty: true });
  if (!checked.ok) return failure(checked.code, checked.message);
  const resolution = await resolvePath({ snapshot: view.head, objects: view.objects }, checked.path);
  if (isFailure(resolution)) return resolution;
  if (resolution.kind === "file") return failure("not_a_directory", "The path is a file, not a directory.");
  const prefix = resolution.path === "" ? "" : `${resolution.path}/`;
  const entries = view.head.entries;

  let index = lowerBound(entries, prefix);
  if (args.cursor !== null) {
    const cursor = checkRepositoryPath(args.cursor);
    if (!cursor.ok || !cursor.path.startsWith(prefix) || !view.head.byPath.has(cursor.path)) {
      return failure(
        "invalid_cursor",
        "The cursor is not a path returned by a preceding page of this listing.",
      );
    }
    index = lowerBound(entries, cursor.path) + 1;
  }

  const limit = Math.min(args.limit, limits.maxListLimit);
  const base = { ok: true, path: resolution.path, files: [] as string[], truncated: true, next_cursor: "" };
  const budget = limits.maxResultBytes - utf8Length(JSON.stringify(base));
  const files: string[] = [];
  let used = 0;
  let truncated = false;
  for (; index < entries.length && entries[index]!.path.startsWith(prefix); index += 1) {
    const entry = entries[index]!;
    // Quotes and comma; counted twice because the last path is repeated as next_cursor.
    const cost = jsonStringLength(entry.path) + 3;
    if (2 * cost > budget || !(await isListable(entry, context))) continue;
    if (files.length === limit || used + 2 * cost > budget) {
      truncated = true;
      break;
    }
    files.push(entry.path);
    used += cost;
  }
  return {
    ok: true,
    path: resolution.path,
    files,
    truncated,
    next_cursor: truncated ? (files[files.length - 1] ?? null) : null,
  };
}

export const listRepositoryFiles = defineTool({
  name: "list_repository_files",
  description: "List repository-relative files in deterministic lexical order.",
  args: ListRepositoryFilesArgs,
  run,
});
