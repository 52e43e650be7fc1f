// The code a thread is about, as the model first sees it: the anchored lines at the head commit
// with some context, each line numbered. Read with the read tool's own rules, so a path the tool
// would refuse (outside the repository, a symlink loop, a binary) is refused here too.

import type { ReplyPromptInput } from "../llm/reply-prompt.ts";
import { readRepositoryTextFile } from "../tools/repository-file.ts";
import type { RepositoryView } from "../workspace/types.ts";

const CONTEXT_LINES = 15;
const MAX_LINES = 120;
const MAX_LINE_CHARS = 400;

export async function codeExcerpt(
  view: RepositoryView,
  anchor: { readonly path: string; readonly line: number | null; readonly startLine: number | null },
): Promise<ReplyPromptInput["code"]> {
  if (anchor.line === null) {
    // Told to the model, never published: the forge's name would add nothing the model can use.
    return {
      unavailable: "the finding is no longer placed on a line of the diff (the code it pointed at changed)",
    };
  }
  const file = await readRepositoryTextFile(view, anchor.path);
  if (!file.ok)
    return {
      unavailable: `${JSON.stringify(anchor.path)} cannot be read at the head commit (${file.error.code})`,
    };
  const start = Math.max(1, (anchor.startLine ?? anchor.line) - CONTEXT_LINES);
  const end = Math.min(file.lineCount, anchor.line + CONTEXT_LINES, start + MAX_LINES - 1);
  if (start > end)
    return { unavailable: `line ${anchor.line} is past the end of the file at the head commit` };
  const text = file.lines
    .slice(start - 1, end)
    .map((line, index) => {
      const cut = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
      return `${start + index}: ${cut}`;
    })
    .join("\n");
  return { firstLine: start, text };
}
