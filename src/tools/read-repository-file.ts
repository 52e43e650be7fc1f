// read_repository_file: at most 400 numbered lines ("12: text") of a text file of the head
// commit. `truncated` is true whenever lines after `end_line` exist (the protocol's example) or a
// line had to be cut to keep the serialized result under the cap.

import * as v from "valibot";
import { sliceSafely } from "../workspace/text.ts";
import { defineTool, type ToolContext } from "./definition.ts";
import { readRepositoryTextFile } from "./repository-file.ts";
import { failure, isFailure, jsonStringLength, utf8Length } from "./result.ts";
import type { ToolResult } from "./types.ts";

export const ReadRepositoryFileArgs = v.strictObject({
  path: v.string(),
  start_line: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 1),
  end_line: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1)))),
});
type Args = v.InferOutput<typeof ReadRepositoryFileArgs>;

const LINE_CUT_MARKER = " … [line truncated]";

/** How many of `numbered` fit in `budget` JSON bytes; cuts the first line when even it does not. */
function fitLines(numbered: string[], budget: number): { lines: string[]; cut: boolean } {
  let used = 0;
  for (let index = 0; index < numbered.length; index += 1) {
    // Each line but the first is preceded by "\n", two bytes once escaped.
    const cost = jsonStringLength(numbered[index]!) + (index === 0 ? 0 : 2);
    if (used + cost > budget) {
      if (index > 0) return { lines: numbered.slice(0, index), cut: false };
      return { lines: [cutLine(numbered[0]!, budget)], cut: true };
    }
    used += cost;
  }
  return { lines: numbered, cut: false };
}

function cutLine(line: string, budget: number): string {
  const room = budget - jsonStringLength(LINE_CUT_MARKER);
  let low = 0;
  let high = line.length;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (jsonStringLength(sliceSafely(line, 0, middle)) <= room) low = middle;
    else high = middle - 1;
  }
  return sliceSafely(line, 0, low) + LINE_CUT_MARKER;
}

async function run(args: Args, { view, limits }: ToolContext): Promise<ToolResult> {
  const file = await readRepositoryTextFile(view, args.path, { maxFileBytes: limits.maxFileBytes });
  if (isFailure(file)) return file;
  const total = file.lineCount;
  const start = args.start_line;
  const requestedEnd = args.end_line ?? null;
  if (requestedEnd !== null && requestedEnd < start) {
    return failure("invalid_range", `end_line (${requestedEnd}) is before start_line (${start}).`);
  }
  if (start > Math.max(total, 1)) {
    return failure("invalid_range", `start_line (${start}) is past the end of the file (${total} lines).`);
  }
  const end = Math.min(requestedEnd ?? total, total, start + limits.maxReadLines - 1);
  const numbered: string[] = [];
  for (let line = start; line <= end; line += 1) numbered.push(`${line}: ${file.lines[line - 1]}`);

  const envelope = {
    ok: true as const,
    path: file.path,
    start_line: start,
    end_line: end,
    total_lines: total,
  };
  const overhead = utf8Length(JSON.stringify({ ...envelope, content: "", truncated: false }));
  const fitted = fitLines(numbered, limits.maxResultBytes - overhead);
  const shownEnd = numbered.length === 0 ? end : start + fitted.lines.length - 1;
  return {
    ...envelope,
    end_line: shownEnd,
    content: fitted.lines.join("\n"),
    truncated: shownEnd < total || fitted.cut,
  };
}

export const readRepositoryFile = defineTool({
  name: "read_repository_file",
  description: "Read at most 400 numbered lines from a repository-relative text file.",
  args: ReadRepositoryFileArgs,
  run,
});
