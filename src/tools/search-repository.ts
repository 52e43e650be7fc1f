// search_repository: case-sensitive literal text (what String.prototype.indexOf finds, never a
// regular expression) in the text files of the head commit under an optional path. One match per
// line, 1-based line numbers, excerpts of at most 200 characters around the match. Symlinks are
// not followed (their targets are searched under their own paths), and submodules, .git, binary,
// non-UTF-8, oversized and unreadable files are skipped. The work is linear in the bytes read
// (search-file.ts), bounded per call in bytes and time (search-budget.ts: the result then says
// where the search stopped), and cut into slices of the event loop.

import * as v from "valibot";
import { checkRepositoryPath, isGitSegment } from "../workspace/safe-path.ts";
import { entriesUnder } from "../workspace/sorted-entries.ts";
import { looksBinary } from "../workspace/text.ts";
import type { TreeEntry } from "../workspace/types.ts";
import { defineTool, type ToolContext } from "./definition.ts";
import { ByteLiteral } from "./literal-bytes.ts";
import { UnitLiteral } from "./literal-units.ts";
import { decodeTextBlob } from "./repository-file.ts";
import { resolvePath } from "./resolve-path.ts";
import { failure, isFailure } from "./result.ts";
import { SearchBudget } from "./search-budget.ts";
import { scanDecoded } from "./search-decoded.ts";
import { type FileScanEnd, scanFile } from "./search-file.ts";
import { Matches } from "./search-matches.ts";
import type { ToolResult } from "./types.ts";

export const SearchRepositoryArgs = v.strictObject({
  query: v.pipe(v.string(), v.minLength(1), v.maxLength(512)),
  path: v.optional(v.string(), ""),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 50),
});
type Args = v.InferOutput<typeof SearchRepositoryArgs>;

function searchable(entry: TreeEntry): boolean {
  return entry.mode !== "symlink" && entry.mode !== "submodule" && !entry.path.split("/").some(isGitSegment);
}

/** The head entries the search covers: one file, or every entry under a directory. */
function scopeEntries(context: ToolContext, kind: "file" | "directory", path: string): readonly TreeEntry[] {
  const { entries, byPath } = context.view.head;
  if (kind === "file") return [byPath.get(path)!];
  return entriesUnder(entries, path);
}

/** How one query is looked for: its UTF-8 bytes in a file's bytes, or its code units in the decoded text. */
type Literal =
  | { readonly kind: "bytes"; readonly literal: ByteLiteral; readonly endsWithCr: boolean }
  | { readonly kind: "units"; readonly literal: UnitLiteral };

function literalFor(query: string): Literal {
  // A query with a lone surrogate matches half of a surrogate pair in the text (indexOf works on
  // UTF-16 code units) and has no UTF-8 form: such a query is searched in every decoded file.
  if (!query.isWellFormed()) return { kind: "units", literal: new UnitLiteral(query) };
  return {
    kind: "bytes",
    literal: new ByteLiteral(Buffer.from(query, "utf8")),
    endsWithCr: query.endsWith("\r"),
  };
}

async function run(args: Args, context: ToolContext): Promise<ToolResult> {
  const { view, limits, signal } = context;
  const checked = checkRepositoryPath(args.path, { allowEmpty: true });
  if (!checked.ok) return failure(checked.code, checked.message);
  const resolution = await resolvePath({ snapshot: view.head, objects: view.objects }, checked.path);
  if (isFailure(resolution)) return resolution;
  const found = new Matches(args.query, checked.path, Math.min(args.limit, limits.maxSearchMatches), limits);
  // Lines never hold a newline, so such a query matches nothing, whatever the files hold.
  if (args.query.includes("\n")) return found.result(null);
  const literal = literalFor(args.query);
  const budget = new SearchBudget({ maxBytes: limits.maxSearchBytes, maxMs: limits.maxSearchMs });
  const entries = scopeEntries(context, resolution.kind, resolution.path).filter(searchable);
  for (const [index, entry] of entries.entries()) {
    const stop = budget.stop();
    if (stop !== null)
      return found.result({ path: entry.path, line: 1, files_left: entries.length - index, reason: stop });
    await budget.pause();
    if (signal?.aborted) return failure("cancelled", "The search was cancelled.");
    const bytes = await view.objects.readBlobWithin(entry.oid, limits.maxFileBytes).catch(() => undefined);
    if (bytes === undefined || bytes === "too_large") continue;
    const onLine = (line: number, text: string, at: number) => found.add(entry.path, line, text, at);
    const end = await searchFile(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      literal,
      budget,
      onLine,
    );
    if (end.kind === "full") return found.result(null);
    if (end.kind === "stopped")
      return found.result({
        path: entry.path,
        line: end.line,
        files_left: entries.length - index,
        reason: end.reason,
      });
  }
  return found.result(null);
}

async function searchFile(
  bytes: Buffer,
  literal: Literal,
  budget: SearchBudget,
  onLine: (line: number, text: string, index: number) => boolean,
): Promise<FileScanEnd> {
  if (looksBinary(bytes)) {
    budget.charge(bytes.byteLength);
    return { kind: "not_text" };
  }
  if (literal.kind === "bytes")
    return scanFile({ bytes, literal: literal.literal, endsWithCr: literal.endsWithCr, budget, onLine });
  const content = decodeTextBlob(bytes);
  if (isFailure(content)) {
    budget.charge(bytes.byteLength);
    return { kind: "not_text" };
  }
  return scanDecoded(content, literal.literal, budget, onLine);
}

export const searchRepository = defineTool({
  name: "search_repository",
  description: "Find case-sensitive literal text in bounded repository source files.",
  args: SearchRepositoryArgs,
  run,
});
