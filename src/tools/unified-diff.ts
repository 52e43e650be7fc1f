// One change of the tree diff as git's unified diff text (`git diff`, renames found like `-M`):
// extended headers, `index` line, `---`/`+++`, `Binary files … differ`, the too-large line and the hunks.

import { looksBinary } from "../workspace/text.ts";
import type { TreeChange } from "../workspace/tree-diff.ts";
import type { EntryMode, ObjectReader, TreeEntry } from "../workspace/types.ts";
import { quoteGitPath } from "./git-quote.ts";
import { formatHunks } from "./hunks.ts";
import {
  factsOfBytes,
  factsOfLargeBlob,
  LARGE_FILE_READS_PER_DIFF,
  type LargeFileReads,
  largeChangeLine,
} from "./large-file.ts";

const GIT_MODES: Readonly<Record<EntryMode, string>> = {
  file: "100644",
  executable: "100755",
  symlink: "120000",
  submodule: "160000",
};
/** git's default abbreviation for small repositories (core.abbrev grows it for large ones). */
const ABBREV = 7;
const NULL_OID = "0".repeat(ABBREV);

/** A side's content, or "too_large" (without reading it) when it is over the read limit. */
async function contentOf(
  objects: ObjectReader,
  entry: TreeEntry,
  maxFileBytes: number,
): Promise<Uint8Array | "too_large"> {
  // git diffs a submodule as the one-line text it would check out: its commit id.
  if (entry.mode === "submodule") return Buffer.from(`Subproject commit ${entry.oid}\n`);
  return objects.readBlobWithin(entry.oid, maxFileBytes);
}

interface Side {
  readonly path: string;
  readonly entry: TreeEntry;
}

export interface PatchContext {
  readonly objects: ObjectReader;
  /** Larger files are described (size, line count), not diffed. */
  readonly maxFileBytes: number;
  /** What may still be read to describe large files; share one across a whole diff. */
  readonly largeFileReads?: LargeFileReads;
}

async function contentLines(
  { objects, maxFileBytes, largeFileReads }: Required<PatchContext>,
  oldSide: Side | undefined,
  newSide: Side | undefined,
): Promise<string[]> {
  const oldBytes =
    oldSide === undefined ? new Uint8Array() : await contentOf(objects, oldSide.entry, maxFileBytes);
  const newBytes =
    newSide === undefined ? new Uint8Array() : await contentOf(objects, newSide.entry, maxFileBytes);
  const empty = (bytes: Uint8Array | "too_large") => bytes !== "too_large" && bytes.length === 0;
  if (empty(oldBytes) && empty(newBytes)) return [];
  const oldName = oldSide === undefined ? "/dev/null" : quoteGitPath("a/", oldSide.path);
  const newName = newSide === undefined ? "/dev/null" : quoteGitPath("b/", newSide.path);
  if (oldBytes === "too_large" || newBytes === "too_large") {
    const facts = (side: Side, bytes: Uint8Array | "too_large") =>
      bytes === "too_large" ? factsOfLargeBlob(objects, side.entry.oid, largeFileReads) : factsOfBytes(bytes);
    const oldFacts = oldSide && { name: oldName, facts: await facts(oldSide, oldBytes) };
    const newFacts = newSide && { name: newName, facts: await facts(newSide, newBytes) };
    return [largeChangeLine(oldFacts, newFacts, maxFileBytes)];
  }
  if (looksBinary(oldBytes) || looksBinary(newBytes))
    return [`Binary files ${oldName} and ${newName} differ`];
  // git ends a `---`/`+++` name containing a space with a tab, so patch(1) can tell where it ends.
  const tab = (side: Side | undefined) => (side?.path.includes(" ") ? "\t" : "");
  return [
    `--- ${oldName}${tab(oldSide)}`,
    `+++ ${newName}${tab(newSide)}`,
    ...formatHunks(oldBytes, newBytes),
  ];
}

function abbrev(entry: TreeEntry | undefined): string {
  return entry === undefined ? NULL_OID : entry.oid.slice(0, ABBREV);
}

async function onePatch(
  context: Required<PatchContext>,
  oldSide: Side | undefined,
  newSide: Side | undefined,
  similarity?: number,
): Promise<string[]> {
  const aPath = (oldSide ?? newSide)!.path;
  const bPath = (newSide ?? oldSide)!.path;
  const lines = [`diff --git ${quoteGitPath("a/", aPath)} ${quoteGitPath("b/", bPath)}`];
  const oldMode = oldSide && GIT_MODES[oldSide.entry.mode];
  const newMode = newSide && GIT_MODES[newSide.entry.mode];
  if (oldSide === undefined) lines.push(`new file mode ${newMode}`);
  else if (newSide === undefined) lines.push(`deleted file mode ${oldMode}`);
  else if (oldMode !== newMode) lines.push(`old mode ${oldMode}`, `new mode ${newMode}`);
  if (oldSide !== undefined && newSide !== undefined && aPath !== bPath) {
    lines.push(`similarity index ${similarity ?? 100}%`, `rename from ${quoteGitPath("", aPath)}`);
    lines.push(`rename to ${quoteGitPath("", bPath)}`);
  }
  if (oldSide?.entry.oid === newSide?.entry.oid) return lines;
  const sameMode = oldSide !== undefined && newSide !== undefined && oldMode === newMode;
  lines.push(`index ${abbrev(oldSide?.entry)}..${abbrev(newSide?.entry)}${sameMode ? ` ${newMode}` : ""}`);
  lines.push(...(await contentLines(context, oldSide, newSide)));
  return lines;
}

/** The diff text of one change, ending with a newline. */
export async function formatChangePatch(change: TreeChange, patchContext: PatchContext): Promise<string> {
  const context: Required<PatchContext> = {
    ...patchContext,
    largeFileReads: patchContext.largeFileReads ?? { remaining: LARGE_FILE_READS_PER_DIFF },
  };
  const oldSide = change.oldEntry && { path: change.previousPath ?? change.path, entry: change.oldEntry };
  const newSide = change.newEntry && { path: change.path, entry: change.newEntry };
  const lines =
    change.status === "type_changed"
      ? // git shows a type change as the old entry deleted, then the new one added.
        [...(await onePatch(context, oldSide, undefined)), ...(await onePatch(context, undefined, newSide))]
      : await onePatch(context, oldSide, newSide, change.similarity);
  return `${lines.join("\n")}\n`;
}
