// search_repository: case-sensitive literal text (String.prototype.indexOf, never a regular
// expression) in the text files of the head commit under an optional path. One match per line,
// 1-based line numbers, excerpts of at most 200 characters around the match. Symlinks are not
// followed (their targets are searched under their own paths), and submodules, .git, binary,
// non-UTF-8, oversized and unreadable files are skipped.

import * as v from "valibot";
import { checkRepositoryPath, isGitSegment } from "../workspace/safe-path.ts";
import type { TreeEntry } from "../workspace/types.ts";
import { defineTool, type ToolContext } from "./definition.ts";
import { decodeTextBlob } from "./repository-file.ts";
import { lowerBound, resolvePath } from "./resolve-path.ts";
import { failure, isFailure, utf8Length } from "./result.ts";
import { sliceSafely } from "../workspace/text.ts";
import type { ToolResult } from "./types.ts";

export const SearchRepositoryArgs = v.strictObject({
  query: v.pipe(v.string(), v.minLength(1), v.maxLength(512)),
  path: v.optional(v.string(), ""),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 50),
});
type Args = v.InferOutput<typeof SearchRepositoryArgs>;

export const MAX_EXCERPT_CHARS = 200;

interface Match {
  readonly path: string;
  readonly line: number;
  readonly excerpt: string;
}

export function excerptAround(line: string, index: number, query: string): string {
  if (line.length <= MAX_EXCERPT_CHARS) {
    const trimmed = line.trim();
    return trimmed.includes(query) ? trimmed : line;
  }
  if (query.length >= MAX_EXCERPT_CHARS) return sliceSafely(line, index, index + MAX_EXCERPT_CHARS);
  const before = Math.floor((MAX_EXCERPT_CHARS - query.length) / 2);
  const end = Math.min(line.length, Math.max(0, index - before) + MAX_EXCERPT_CHARS);
  return sliceSafely(line, end - MAX_EXCERPT_CHARS, end);
}

function searchable(entry: TreeEntry): boolean {
  return entry.mode !== "symlink" && entry.mode !== "submodule" && !entry.path.split("/").some(isGitSegment);
}

/** The head entries the search covers: one file, or every entry under a directory. */
function scopeEntries(context: ToolContext, kind: "file" | "directory", path: string): TreeEntry[] {
  const { entries, byPath } = context.view.head;
  if (kind === "file") return [byPath.get(path)!];
  const prefix = path === "" ? "" : `${path}/`;
  const out: TreeEntry[] = [];
  for (let index = lowerBound(entries, prefix); index < entries.length; index += 1) {
    if (!entries[index]!.path.startsWith(prefix)) break;
    out.push(entries[index]!);
  }
  return out;
}

async function run(args: Args, context: ToolContext): Promise<ToolResult> {
  const { view, limits, signal } = context;
  const checked = checkRepositoryPath(args.path, { allowEmpty: true });
  if (!checked.ok) return failure(checked.code, checked.message);
  const resolution = await resolvePath({ snapshot: view.head, objects: view.objects }, checked.path);
  if (isFailure(resolution)) return resolution;

  const limit = Math.min(args.limit, limits.maxSearchMatches);
  const envelope = {
    ok: true,
    query: args.query,
    path: checked.path,
    matches: [] as Match[],
    truncated: true,
  };
  let budget = limits.maxResultBytes - utf8Length(JSON.stringify(envelope));
  const matches: Match[] = [];
  let truncated = false;
  // A query with a lone surrogate matches half of a surrogate pair in the text (indexOf works on
  // UTF-16 code units) and has no UTF-8 form: such a query is searched in every decoded file.
  const needle = args.query.isWellFormed() ? Buffer.from(args.query, "utf8") : null;
  search: for (const entry of scopeEntries(context, resolution.kind, resolution.path)) {
    if (signal?.aborted) return failure("cancelled", "The search was cancelled.");
    if (!searchable(entry)) continue;
    const bytes = await view.objects.readBlobWithin(entry.oid, limits.maxFileBytes).catch(() => undefined);
    if (bytes === undefined || bytes === "too_large") continue;
    // Bytes that do not hold the query's UTF-8 bytes cannot decode to text holding the query: most
    // files of a search are skipped here, without being decoded and split into lines.
    if (needle !== null && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(needle) < 0)
      continue;
    const content = decodeTextBlob(bytes);
    if (isFailure(content)) continue;
    for (let line = 0; line < content.lines.length; line += 1) {
      const text = content.lines[line]!;
      const index = text.indexOf(args.query);
      if (index < 0) continue;
      const match = { path: entry.path, line: line + 1, excerpt: excerptAround(text, index, args.query) };
      const cost = utf8Length(JSON.stringify(match)) + 1;
      if (matches.length === limit || cost > budget) {
        truncated = true;
        break search;
      }
      matches.push(match);
      budget -= cost;
    }
  }
  return { ok: true, query: args.query, path: checked.path, matches, truncated };
}

export const searchRepository = defineTool({
  name: "search_repository",
  description: "Find case-sensitive literal text in bounded repository source files.",
  args: SearchRepositoryArgs,
  run,
});
