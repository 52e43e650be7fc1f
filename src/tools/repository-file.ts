// Reading one text file of the head commit under every safety rule: the path rules, symlinks
// resolved before the containment check, and refusal of directories, submodules, binary,
// non-UTF-8 and oversized files. read_repository_file and the final-review path check share it.

import { checkRepositoryPath } from "../workspace/safe-path.ts";
import { countLines, decodeUtf8, looksBinary, splitLines } from "../workspace/text.ts";
import type { ObjectReader, RepositoryView, TreeEntry } from "../workspace/types.ts";
import { DEFAULT_TOOL_LIMITS } from "./limits.ts";
import { resolvePath } from "./resolve-path.ts";
import { failure, isFailure } from "./result.ts";
import type { ToolFailure } from "./types.ts";

export type TextFile = {
  ok: true;
  /** The normalised path as requested (a symlink keeps its own name). */
  path: string;
  /** The resolved entry: for a symlink, the regular file it points to. */
  entry: TreeEntry;
  text: string;
  lineCount: number;
  /** The lines as numbered by git, CR of CRLF removed (see splitLines). */
  lines: readonly string[];
};

export type TextContent = { readonly text: string; readonly lines: readonly string[] };

/** Loads a resolved entry as text, or says why it is not a readable text file. */
export async function loadTextEntry(
  objects: ObjectReader,
  entry: TreeEntry,
  maxFileBytes: number,
): Promise<TextContent | ToolFailure> {
  if (entry.mode === "submodule") {
    return failure("not_a_regular_file", "The path is a submodule, not a regular file.");
  }
  if (entry.mode === "symlink") return failure("not_a_regular_file", "The path is a symlink.");
  // A huge blob is refused by its size, without being inflated.
  const bytes = await objects.readBlobWithin(entry.oid, maxFileBytes);
  if (bytes === "too_large") {
    return failure("file_too_large", `The file is larger than ${maxFileBytes} bytes.`);
  }
  return decodeTextBlob(bytes);
}

/** A blob's bytes as text and lines, or why they are not text (binary, not UTF-8). */
export function decodeTextBlob(bytes: Uint8Array): TextContent | ToolFailure {
  if (looksBinary(bytes)) return failure("binary_file", "The file is binary.");
  const text = decodeUtf8(bytes);
  if (text === undefined) return failure("binary_file", "The file is not valid UTF-8 text.");
  // Split on first use: a caller that needs only the line count (a finding's check) or one line
  // range never makes a megabyte file's lines at all.
  let lines: string[] | undefined;
  return {
    text,
    get lines() {
      lines ??= splitLines(text);
      return lines;
    },
  };
}

export async function readRepositoryTextFile(
  view: RepositoryView,
  path: string,
  options?: { readonly maxFileBytes?: number },
): Promise<TextFile | ToolFailure> {
  const checked = checkRepositoryPath(path);
  if (!checked.ok) return failure(checked.code, checked.message);
  try {
    const resolution = await resolvePath({ snapshot: view.head, objects: view.objects }, checked.path);
    if (isFailure(resolution)) return resolution;
    if (resolution.kind === "directory") {
      return failure("path_is_directory", "The path is a directory; list it with list_repository_files.");
    }
    const maxFileBytes = options?.maxFileBytes ?? DEFAULT_TOOL_LIMITS.maxFileBytes;
    const content = await loadTextEntry(view.objects, resolution.entry, maxFileBytes);
    if (isFailure(content)) return content;
    return {
      ok: true,
      path: checked.path,
      entry: resolution.entry,
      text: content.text,
      lineCount: countLines(content.text),
      get lines() {
        return content.lines;
      },
    };
  } catch {
    // An object store fault; its message may carry local paths, so it is not passed on.
    return failure("internal_error", "The repository could not be read.");
  }
}
