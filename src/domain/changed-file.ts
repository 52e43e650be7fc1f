// One changed file of a pull request, in GitHub's words whichever host found it: the App reads
// GitHub's comparison, the CLI makes the same shape from Loupe's own diff, so anchoring, the
// `paths` rules and the model's file list treat both alike.

export interface ChangedFile {
  readonly filename: string;
  /** GitHub's status: added, removed, modified, renamed, copied, changed, unchanged. */
  readonly status: string;
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
