// Reads commit trees and blobs straight from a git object store through Loupe's own object
// database (src/workspace/objects): packs and loose objects, a shared byte-bounded cache, every
// object checked against its id. isomorphic-git stays the fallback for what that reader does not
// parse, and keeps its own parsed-pack cache for the operations still done with it (fetch,
// revision parsing, merge-base).

import fs from "node:fs";
import { LoupeError } from "../domain/errors.ts";
import { CorruptObjectStoreError, type GitObject, type GitObjectType } from "./objects/git-object.ts";
import { createObjectDatabase, type ObjectDatabase } from "./objects/object-database.ts";
import { commitTreeId, parseTree, type TreeItem } from "./objects/tree-object.ts";
import { SNAPSHOT_LIMITS, type SnapshotLimits, SnapshotWalk } from "./snapshot-bounds.ts";
import { entriesUnder } from "./sorted-entries.ts";
import type { CommitSnapshot, ObjectReader, TreeEntry } from "./types.ts";

export interface ObjectStoreLocation {
  readonly gitdir: string;
  /** isomorphic-git's parsed-pack cache, shared by every isomorphic-git call on this store. */
  readonly cache: object;
  readonly database: ObjectDatabase;
}

export function createObjectStore(gitdir: string): ObjectStoreLocation {
  const cache = {};
  const fallback = async (oid: string): Promise<GitObject | undefined> => {
    // Loaded on first use: a search or a diff on packs Loupe reads never needs it, and loading it
    // was a third of `loupe tool`'s start (bench/README.md, "Drift").
    const { default: git } = await import("isomorphic-git");
    try {
      const found = await git.readObject({ fs, gitdir, oid, format: "content", cache });
      return { type: found.type as GitObjectType, bytes: found.object as Uint8Array };
    } catch (error) {
      if ((error as { code?: unknown }).code === "NotFoundError") return undefined;
      throw error;
    }
  };
  return { gitdir, cache, database: createObjectDatabase({ gitdir, fallback }) };
}

/** Runs a read of the store; damage becomes a LoupeError (the store's own text stays inside). */
async function fromStore<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof CorruptObjectStoreError) {
      throw new LoupeError("git_repository_invalid", `the object store is damaged: ${error.message}`, {
        cause: error,
      });
    }
    throw error;
  }
}

/** Reads one object of the expected type; anything else means the store is damaged. */
async function readTyped(store: ObjectStoreLocation, oid: string, type: GitObjectType): Promise<Uint8Array> {
  const object: GitObject | undefined = await fromStore(() => store.database.readObject(oid));
  if (object === undefined) {
    throw new LoupeError("git_repository_invalid", `the ${type} ${oid} is missing from the object store`);
  }
  if (object.type !== type) {
    throw new LoupeError("git_repository_invalid", `the object ${oid} is a ${object.type}, not a ${type}`);
  }
  return object.bytes;
}

export interface SnapshotOptions {
  /** The review's signal: its deadline or a cancellation stops the walk. */
  readonly signal?: AbortSignal;
  /** Default: SNAPSHOT_LIMITS (snapshot-bounds.ts says why). */
  readonly limits?: SnapshotLimits;
  /**
   * A snapshot read before (the review's head, when this is its merge-base): a directory whose
   * tree has the same id at the same path is not read again, its entries are taken from that
   * snapshot; so is any entry with the same path, mode and id. Most of a merge-base's directories
   * are the head's: on a 100,000-file tree, reading them again cost a second copy of every path
   * and parsed entry as garbage (the fetch's peak memory) and most of the second walk's CPU.
   */
  readonly reuse?: CommitSnapshot;
}

/** The tree id of each directory a snapshot's walk read, by path, and the depth bound it held to. */
interface SnapshotTrees {
  readonly byPath: ReadonlyMap<string, string>;
  readonly maxDepth: number;
}

/**
 * Kept beside each snapshot read here, for a later read that reuses it; not part of the
 * snapshot's shape (tools never ask for a directory's id), and gone with the snapshot.
 */
const treesOfSnapshot = new WeakMap<CommitSnapshot, SnapshotTrees>();

/** A path listed twice in one tree (git's fsck rejects it): its entries came from both. */
const LISTED_TWICE = "";

export async function readCommitSnapshot(
  store: ObjectStoreLocation,
  commit: string,
  options: SnapshotOptions = {},
): Promise<CommitSnapshot> {
  const treeOid = commitTreeId(await readTyped(store, commit, "commit"), commit);
  const entries: TreeEntry[] = [];
  const maxDepth = (options.limits ?? SNAPSHOT_LIMITS).maxDepth;
  const earlier = options.reuse === undefined ? undefined : treesOfSnapshot.get(options.reuse);
  const walk: Walk = {
    bounds: new SnapshotWalk(commit, options),
    parsed: new Map<string, TreeItem[]>(),
    parsedItems: 0,
    reuse: options.reuse?.byPath,
    // A directory copied whole skips the depth checks of its subdirectories: only from a walk
    // that held to the same bound or a stricter one.
    reuseTrees:
      earlier !== undefined && earlier.maxDepth <= maxDepth
        ? { trees: earlier.byPath, entries: options.reuse!.entries }
        : undefined,
    trees: new Map<string, string>(),
  };
  await collectTree(store, { oid: treeOid, prefix: "", depth: 0 }, entries, walk);
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const snapshot = { commit, entries, byPath: new Map(entries.map((entry) => [entry.path, entry])) };
  treesOfSnapshot.set(snapshot, { byPath: walk.trees, maxDepth });
  return snapshot;
}

/**
 * Trees parsed lately, by id. A tree listed again (the same directory under several names, or a
 * tree bomb's) is read and parsed once while it stays here; a few hundred cover any repetition
 * within one walk's nesting, and cost nothing in a tree whose directories are all different. The
 * items they hold are bounded too: a monorepo's directories of a thousand files each would
 * otherwise keep a quarter of a million parsed items alive for nothing.
 */
const PARSED_TREES_KEPT = 256;
const PARSED_ITEMS_KEPT = 16_384;

interface Walk {
  readonly bounds: SnapshotWalk;
  readonly parsed: Map<string, TreeItem[]>;
  parsedItems: number;
  readonly reuse: ReadonlyMap<string, TreeEntry> | undefined;
  /** The reused snapshot's directories, and its entries sorted by path. */
  readonly reuseTrees:
    | { readonly trees: ReadonlyMap<string, string>; readonly entries: readonly TreeEntry[] }
    | undefined;
  /**
   * This walk's directories (LISTED_TWICE for a path listed twice); one taken whole brings none of
   * its subdirectories, which a later read reusing this snapshot then walks.
   */
  readonly trees: Map<string, string>;
}

async function collectTree(
  store: ObjectStoreLocation,
  tree: { readonly oid: string; readonly prefix: string; readonly depth: number },
  out: TreeEntry[],
  walk: Walk,
): Promise<void> {
  const { prefix, depth } = tree;
  await walk.bounds.enterTree(depth);
  const items = await treeItems(store, tree.oid, walk);
  for (const item of items) {
    const path = prefix === "" ? item.name : `${prefix}/${item.name}`;
    if (item.kind === "tree") {
      walk.trees.set(path, walk.trees.has(path) ? LISTED_TWICE : item.oid);
      if (walk.reuseTrees?.trees.get(path) === item.oid) copyDirectory(path, walk, out);
      else await collectTree(store, { oid: item.oid, prefix: path, depth: depth + 1 }, out, walk);
    } else {
      walk.bounds.addPath();
      const same = walk.reuse?.get(path);
      out.push(
        same !== undefined && same.oid === item.oid && same.mode === item.kind
          ? same
          : { path, mode: item.kind, oid: item.oid },
      );
    }
  }
}

/**
 * Every entry of the reused snapshot under `directory`, whose tree there has the id this walk met
 * at the same path: the same tree, so the same entries, each still counted against the bounds.
 */
function copyDirectory(directory: string, walk: Walk, out: TreeEntry[]): void {
  for (const entry of entriesUnder(walk.reuseTrees!.entries, directory)) {
    walk.bounds.addPath();
    out.push(entry);
  }
}

async function treeItems(store: ObjectStoreLocation, oid: string, walk: Walk): Promise<TreeItem[]> {
  const { parsed } = walk;
  const kept = parsed.get(oid);
  if (kept !== undefined) return kept;
  let items: TreeItem[];
  try {
    items = parseTree(await readTyped(store, oid, "tree"), oid);
  } catch (error) {
    if (!(error instanceof CorruptObjectStoreError)) throw error;
    throw new LoupeError("git_repository_invalid", `the object store is damaged: ${error.message}`);
  }
  if (items.length > PARSED_ITEMS_KEPT) return items;
  for (const [oldest, held] of parsed) {
    if (parsed.size < PARSED_TREES_KEPT && walk.parsedItems + items.length <= PARSED_ITEMS_KEPT) break;
    parsed.delete(oldest);
    walk.parsedItems -= held.length;
  }
  parsed.set(oid, items);
  walk.parsedItems += items.length;
  return items;
}

/** blobSize reads objects up to this size whole rather than probing their headers. */
const SIZE_READS_WHOLE_BYTES = 64 * 1024;

export function createObjectReader(store: ObjectStoreLocation): ObjectReader {
  return {
    readBlob: (oid) => readTyped(store, oid, "blob"),
    async readBlobWithin(oid, maxBytes) {
      const object = await fromStore(() => store.database.readObjectWithin(oid, maxBytes));
      if (object === undefined) {
        throw new LoupeError("git_repository_invalid", `the blob ${oid} is missing from the object store`);
      }
      if ("tooLarge" in object) return "too_large";
      if (object.type !== "blob") {
        throw new LoupeError("git_repository_invalid", `the object ${oid} is a ${object.type}, not a blob`);
      }
      return object.bytes;
    },
    async blobSize(oid) {
      // A small object is read whole (one read; it is usually wanted next, and then cached); a
      // larger one is sized from its headers, without being inflated.
      const object = await fromStore(() => store.database.readObjectWithin(oid, SIZE_READS_WHOLE_BYTES));
      if (object === undefined) {
        throw new LoupeError("git_repository_invalid", `the blob ${oid} is missing from the object store`);
      }
      return "tooLarge" in object ? object.tooLarge : object.bytes.byteLength;
    },
  };
}
