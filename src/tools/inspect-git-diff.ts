// inspect_git_diff: the git-style unified diff of the two immutable commits of the view
// (merge-base → head), optionally narrowed to paths. Commits never come from the model.
// `diff` is cut at a line boundary so that its JSON-escaped size stays within `max_bytes`;
// `files` lists every selected change (bounded separately, see FILES_BUDGET).

import * as v from "valibot";
import { checkRepositoryPath } from "../workspace/safe-path.ts";
import type { TreeChange } from "../workspace/tree-diff.ts";
import { defineTool, type ToolContext } from "./definition.ts";
import { LARGE_FILE_READS_PER_DIFF } from "./large-file.ts";
import { failure, jsonStringLength, utf8Length } from "./result.ts";
import type { ToolResult } from "./types.ts";

export const InspectGitDiffArgs = v.strictObject({
  paths: v.optional(v.pipe(v.array(v.string()), v.maxLength(50)), []),
  max_bytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(131072)), 65536),
});
type Args = v.InferOutput<typeof InspectGitDiffArgs>;

/** Serialized bytes reserved for the `files` summary, on top of `max_bytes` for `diff`. */
export const FILES_BUDGET = 16 * 1024;
const ENVELOPE_BUDGET = 1024;

interface FileSummary {
  readonly path: string;
  readonly status: TreeChange["status"];
  readonly previous_path?: string;
  readonly similarity?: number;
}

function selects(filters: readonly string[], path: string): boolean {
  return filters.some((filter) => path === filter || path.startsWith(`${filter}/`));
}

function summarise(changes: readonly TreeChange[]): { files: FileSummary[]; truncated: boolean } {
  const files: FileSummary[] = [];
  let used = 0;
  for (const change of changes) {
    const file: FileSummary =
      change.previousPath === undefined
        ? { path: change.path, status: change.status }
        : {
            path: change.path,
            status: change.status,
            previous_path: change.previousPath,
            similarity: change.similarity,
          };
    used += utf8Length(JSON.stringify(file)) + 1;
    if (used > FILES_BUDGET) return { files, truncated: true };
    files.push(file);
  }
  return { files, truncated: false };
}

/** The longest run of whole lines of `patch` whose escaped size fits in `room`. */
function cutAtLine(patch: string, room: number): string {
  let kept = "";
  let used = 0;
  for (const line of patch.split(/(?<=\n)/)) {
    used += jsonStringLength(line);
    if (used > room) break;
    kept += line;
  }
  return kept;
}

async function run(args: Args, { view, limits, signal }: ToolContext): Promise<ToolResult> {
  const filters: string[] = [];
  for (const [index, raw] of args.paths.entries()) {
    const checked = checkRepositoryPath(raw);
    if (!checked.ok) return failure("invalid_path", `paths[${index}]: ${checked.message}`);
    filters.push(checked.path);
  }
  // Loaded on first use: the rename detection and line diff are a third of the tools' code, and
  // a command that never diffs (`loupe tool search_repository`) should not compile them.
  const [{ changesOf }, { formatChangePatch }] = await Promise.all([
    import("../diff/changes.ts"),
    import("./unified-diff.ts"),
  ]);
  const all = await changesOf(view);
  const changes =
    filters.length === 0
      ? all
      : all.filter(
          (c) =>
            selects(filters, c.path) || (c.previousPath !== undefined && selects(filters, c.previousPath)),
        );

  const budget = Math.min(args.max_bytes, limits.maxDiffBytes);
  let diff = "";
  let used = 0;
  let truncated = false;
  const largeFileReads = { remaining: LARGE_FILE_READS_PER_DIFF };
  for (const change of changes) {
    if (signal?.aborted) return failure("cancelled", "The diff was cancelled.");
    const patch = await formatChangePatch(change, {
      objects: view.objects,
      maxFileBytes: limits.maxFileBytes,
      largeFileReads,
    });
    const size = jsonStringLength(patch);
    if (used + size > budget) {
      diff += cutAtLine(patch, budget - used);
      truncated = true;
      break;
    }
    diff += patch;
    used += size;
  }
  const summary = summarise(changes);
  return {
    ok: true,
    base_sha: view.mergeBase.commit,
    head_sha: view.head.commit,
    total_files: changes.length,
    files: summary.files,
    files_truncated: summary.truncated,
    diff,
    truncated,
  };
}

export const inspectGitDiff = defineTool({
  name: "inspect_git_diff",
  description: "Inspect the immutable base-to-head Git diff, optionally narrowed to paths.",
  args: InspectGitDiffArgs,
  run,
  // `max_bytes` bounds the diff text; the summary and the envelope have their own fixed budgets.
  resultCap: (args, limits) => Math.min(args.max_bytes, limits.maxDiffBytes) + FILES_BUDGET + ENVELOPE_BUDGET,
});
