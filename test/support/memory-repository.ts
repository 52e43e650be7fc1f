// Builds a RepositoryView in memory for fast pure tests: blob ids are computed like git's
// (sha1 of `blob <len>\0` + content), so the same content always has the same oid.

import { createHash } from "node:crypto";
import type {
  CommitSnapshot,
  EntryMode,
  ObjectReader,
  RepositoryView,
  TreeEntry,
} from "../../src/workspace/types.ts";

export type MemoryFile =
  | string
  | Uint8Array
  | { readonly symlink: string }
  | { readonly mode: EntryMode; readonly content: string | Uint8Array };

export type MemoryTree = Readonly<Record<string, MemoryFile>>;

export function gitBlobOid(content: Uint8Array): string {
  const header = Buffer.from(`blob ${content.length}\0`);
  return createHash("sha1").update(header).update(content).digest("hex");
}

function toBytes(content: string | Uint8Array): Uint8Array {
  return typeof content === "string" ? Buffer.from(content, "utf8") : content;
}

function entryOf(path: string, file: MemoryFile, blobs: Map<string, Uint8Array>): TreeEntry {
  let mode: EntryMode = "file";
  let content: Uint8Array;
  if (typeof file === "string" || file instanceof Uint8Array) content = toBytes(file);
  else if ("symlink" in file) {
    mode = "symlink";
    content = toBytes(file.symlink);
  } else {
    mode = file.mode;
    content = toBytes(file.content);
  }
  // A submodule entry's "content" is the commit id it points to; there is no blob to store.
  if (mode === "submodule") return { path, mode, oid: Buffer.from(content).toString("utf8") };
  const oid = gitBlobOid(content);
  blobs.set(oid, content);
  return { path, mode, oid };
}

function snapshotOf(tree: MemoryTree, blobs: Map<string, Uint8Array>): CommitSnapshot {
  const entries = Object.entries(tree)
    .map(([path, file]) => entryOf(path, file, blobs))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const commit = createHash("sha1")
    .update(entries.map((entry) => `${entry.mode} ${entry.oid} ${entry.path}`).join("\n"))
    .digest("hex");
  return { commit, entries, byPath: new Map(entries.map((entry) => [entry.path, entry])) };
}

export interface MemoryRepository extends RepositoryView {
  /** How many blob reads were made (to check that tools stay bounded). */
  readonly reads: () => number;
}

export function memoryRepository(options: {
  readonly head: MemoryTree;
  readonly mergeBase?: MemoryTree;
  /** Blob ids whose read rejects, as a corrupt object store would. */
  readonly failingOids?: readonly string[];
}): MemoryRepository {
  const blobs = new Map<string, Uint8Array>();
  const head = snapshotOf(options.head, blobs);
  const mergeBase = snapshotOf(options.mergeBase ?? options.head, blobs);
  let reads = 0;
  const objects: ObjectReader = {
    async readBlob(oid) {
      reads += 1;
      const blob = blobs.get(oid);
      if (blob === undefined || options.failingOids?.includes(oid)) {
        throw new Error(`object ${oid} missing from /secret/local/path`);
      }
      return blob;
    },
    async readBlobWithin(oid, maxBytes) {
      const blob = blobs.get(oid);
      if (blob === undefined || options.failingOids?.includes(oid)) {
        throw new Error(`object ${oid} missing from /secret/local/path`);
      }
      return blob.byteLength > maxBytes ? "too_large" : blob;
    },
    async blobSize(oid) {
      const blob = blobs.get(oid);
      if (blob === undefined || options.failingOids?.includes(oid)) {
        throw new Error(`object ${oid} missing from /secret/local/path`);
      }
      return blob.byteLength;
    },
  };
  return { head, mergeBase, objects, reads: () => reads };
}
