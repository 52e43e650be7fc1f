// Resolves a checked repository path over a commit's tree, following symlinks virtually: a
// symlink entry's blob is its target, resolved relative to the link's directory. Every
// component is followed (a symlink in the middle of a path too), so containment is decided on
// the fully resolved path, never on the spelling the model sent. Nothing touches the disk.

import { isGitSegment } from "../workspace/safe-path.ts";
import { lowerBound } from "../workspace/sorted-entries.ts";
import { decodeUtf8 } from "../workspace/text.ts";
import type { CommitSnapshot, ObjectReader, TreeEntry } from "../workspace/types.ts";
import { failure } from "./result.ts";
import type { ToolFailure } from "./types.ts";

/** Linux's MAXSYMLINKS; a chain longer than this is treated as a loop. */
export const MAX_SYMLINK_HOPS = 40;
const MAX_TARGET_BYTES = 4096;

export type Resolution =
  | { readonly kind: "file"; readonly path: string; readonly entry: TreeEntry }
  | { readonly kind: "directory"; readonly path: string }
  | ToolFailure;

export interface TreeScope {
  readonly snapshot: CommitSnapshot;
  readonly objects: ObjectReader;
}

const NOT_FOUND = failure("path_not_found", "The requested path does not exist.");
const OUTSIDE = failure("path_outside_repository", "The path resolves outside the repository.");

/** A directory exists in git only as the prefix of some entry. The root always exists. */
export function isDirectory(snapshot: CommitSnapshot, dir: string): boolean {
  if (dir === "") return true;
  const prefix = `${dir}/`;
  const next = snapshot.entries[lowerBound(snapshot.entries, prefix)];
  return next?.path.startsWith(prefix) === true;
}

async function readTarget(scope: TreeScope, entry: TreeEntry): Promise<string | undefined> {
  const bytes = await scope.objects.readBlobWithin(entry.oid, MAX_TARGET_BYTES);
  if (bytes === "too_large" || bytes.length === 0) return undefined;
  const text = decodeUtf8(bytes);
  return text === undefined || text.includes("\0") ? undefined : text;
}

export async function resolvePath(scope: TreeScope, path: string): Promise<Resolution> {
  const pending = path === "" ? [] : path.split("/");
  const resolved: string[] = [];
  let hops = 0;
  while (pending.length > 0) {
    const segment = pending.shift()!;
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (resolved.length === 0) return OUTSIDE;
      resolved.pop();
      continue;
    }
    if (isGitSegment(segment)) return failure("path_outside_repository", "The path resolves into .git.");
    const candidate = resolved.length === 0 ? segment : `${resolved.join("/")}/${segment}`;
    const entry = scope.snapshot.byPath.get(candidate);
    if (entry === undefined) {
      if (!isDirectory(scope.snapshot, candidate)) return NOT_FOUND;
      resolved.push(segment);
      continue;
    }
    if (entry.mode === "symlink") {
      hops += 1;
      if (hops > MAX_SYMLINK_HOPS) {
        return failure("symlink_loop", `The path follows more than ${MAX_SYMLINK_HOPS} symlinks.`);
      }
      const target = await readTarget(scope, entry);
      if (target === undefined) return failure("path_not_found", "The path is a broken symlink.");
      if (target.startsWith("/") || target.includes("\\") || /^[A-Za-z]:/.test(target)) return OUTSIDE;
      pending.unshift(...target.split("/"));
      continue;
    }
    // A file or submodule used as a directory: like ENOTDIR on disk.
    if (pending.length > 0) return NOT_FOUND;
    return { kind: "file", path: candidate, entry };
  }
  return { kind: "directory", path: resolved.join("/") };
}
