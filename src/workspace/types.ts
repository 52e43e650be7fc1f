// The repository side of a review as the tools see it: two immutable commits (the PR head and
// the merge-base) and a way to read blobs by id. Tools never touch the file system directly,
// so hostile names in a tree can never be written to or read from disk outside a checkout.

export type EntryMode = "file" | "executable" | "symlink" | "submodule";

export interface TreeEntry {
  /** Repository-relative path with `/` separators, as stored in the git tree. */
  readonly path: string;
  readonly mode: EntryMode;
  /** Blob id (or commit id for a submodule). */
  readonly oid: string;
}

/** Every non-tree entry of one commit, sorted by path (UTF-16 code unit order, like `<`). */
export interface CommitSnapshot {
  readonly commit: string;
  readonly entries: readonly TreeEntry[];
  readonly byPath: ReadonlyMap<string, TreeEntry>;
}

export interface ObjectReader {
  /** Raw bytes of a blob. Rejects only for infrastructure faults (corrupt store, I/O). */
  readBlob(oid: string): Promise<Uint8Array>;
  /**
   * The blob, or "too_large" when it is over `maxBytes`, decided from the object's headers before
   * it is inflated (gigabytes of one repeated byte pack into a few megabytes).
   */
  readBlobWithin(oid: string, maxBytes: number): Promise<Uint8Array | "too_large">;
  /** A blob's size in bytes, from the object's headers (nothing large is inflated). */
  blobSize(oid: string): Promise<number>;
}

export interface RepositoryView {
  readonly head: CommitSnapshot;
  readonly mergeBase: CommitSnapshot;
  readonly objects: ObjectReader;
}

/**
 * A workspace as the review pipeline holds it: the pipeline only hands it back to the ports that
 * made it and disposes of it. In-process it is the Workspace itself; when the repository work runs
 * in a worker thread it is a handle to the workspace that lives there (src/isolation).
 */
export interface WorkspaceHandle {
  /** Removes anything the workspace created on disk. */
  dispose(): Promise<void>;
}

/** A fetched or opened repository. */
export interface Workspace extends RepositoryView, WorkspaceHandle {}
