// How far a snapshot's walk of a commit's tree may go. A tree names its subtrees by id, so a few
// small objects can list one subtree many times over and expand to billions of paths (a "tree
// bomb"); the walk builds every path in memory, so without a bound it runs until the process dies.
// The bounds are the ones the tools already imply:
// - depth: no tool accepts a path longer than MAX_PATH_LENGTH characters, and each directory
//   adds at least two (a one-character name and its `/`), so nothing deeper can be named;
// - paths: a million, more than twice the largest tree the repository worker's default heap is
//   measured to review (a directory of 400,000 entries), past the largest repositories people
//   review, and far below what a bomb expands to.
// Past either the walk stops with `git_tree_too_large`, a skip like a fetch past its byte limit.
// It also stops when the review's signal fires (its deadline or a cancellation), checked between
// slices of the walk that give the event loop a turn, so that a timer can fire at all.

import { LoupeError } from "../domain/errors.ts";
import { MAX_PATH_LENGTH } from "./safe-path.ts";

export const SNAPSHOT_MAX_PATHS = 1_000_000;
export const SNAPSHOT_MAX_DEPTH = MAX_PATH_LENGTH / 2;

/** Trees read between two turns of the event loop (a turn costs about a microsecond). */
const TREES_A_SLICE = 256;

export interface SnapshotLimits {
  readonly maxPaths: number;
  readonly maxDepth: number;
}

export const SNAPSHOT_LIMITS: SnapshotLimits = Object.freeze({
  maxPaths: SNAPSHOT_MAX_PATHS,
  maxDepth: SNAPSHOT_MAX_DEPTH,
});

/** The walk of one commit: what it has read so far, against its limits and signal. */
export class SnapshotWalk {
  readonly #commit: string;
  readonly #limits: SnapshotLimits;
  readonly #signal: AbortSignal | undefined;
  #paths = 0;
  #trees = 0;

  constructor(commit: string, options: { readonly limits?: SnapshotLimits; readonly signal?: AbortSignal }) {
    this.#commit = commit;
    this.#limits = options.limits ?? SNAPSHOT_LIMITS;
    this.#signal = options.signal;
  }

  /** Before a tree `depth` directories below the root is read. */
  async enterTree(depth: number): Promise<void> {
    if (depth > this.#limits.maxDepth) {
      throw new LoupeError(
        "git_tree_too_large",
        `the commit ${this.#commit} nests directories more than ${this.#limits.maxDepth} deep`,
      );
    }
    this.#trees += 1;
    if (this.#trees % TREES_A_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    this.#signal?.throwIfAborted();
  }

  /** Before one more path is kept. */
  addPath(): void {
    this.#paths += 1;
    if (this.#paths > this.#limits.maxPaths) {
      throw new LoupeError(
        "git_tree_too_large",
        `the commit ${this.#commit} lists more than ${this.#limits.maxPaths} paths`,
      );
    }
  }
}
