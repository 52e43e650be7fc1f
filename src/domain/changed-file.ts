// One changed file of a pull request, in Loupe's words whichever forge found it: GitHub's
// comparison, GitLab's merge request diffs and Loupe's own diff (the CLI) are each mapped into this
// shape, so anchoring, the `paths` rules and the model's file list treat them alike.

/**
 * What happened to a file. `changed`: only its mode or type (a file made executable, a file
 * turned into a symlink). The words are the ones the model's file list and the coverage report
 * have always shown; `removed` is listed to the model as git's `deleted` (diff/change-status.ts).
 */
export type ChangeStatus = "added" | "modified" | "removed" | "renamed" | "copied" | "changed";

export interface ChangedFile {
  readonly filename: string;
  readonly status: ChangeStatus;
  readonly previousFilename: string | null;
  /** The unified hunks (no header lines); null for binary files and diffs over the host's limits. */
  readonly patch: string | null;
  readonly additions: number;
  readonly deletions: number;
  /** A rename's similarity in percent, when the host measured it (Loupe's own diff does). */
  readonly similarity?: number;
}

/** The three-dot change of a pull request: its merge-base and changed files. */
export interface ChangeSet {
  readonly mergeBaseSha: string;
  readonly files: readonly ChangedFile[];
  /** True when GitHub's list may be cut (3,000 files listed): the pull request is larger still. */
  readonly filesTruncated: boolean;
  /**
   * Set when pulls.listFiles already described a newer head than the one under review (a push
   * landed while Loupe was listing): the files are not this commit's, and that push gets its own
   * review.
   */
  readonly headMovedTo: string | null;
}
