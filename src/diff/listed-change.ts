// One changed file as Loupe lists it to the model in the first message, from whichever source
// knows the pull request: GitHub's compare (the app) or Loupe's own diff (the CLI), both as a ChangedFile. The same
// rules as inspect_git_diff: a rename is one entry with its previous path, never a deleted plus
// an added file; nothing is called binary that Loupe has not seen to be binary.

import type { ChangedFile } from "../domain/changed-file.ts";
import { type ListedStatus, listedStatus } from "./change-status.ts";

export interface ListedChange {
  readonly path: string;
  readonly status: ListedStatus;
  readonly previous_path?: string;
  /** A rename's similarity in percent (Loupe's diff). */
  readonly similarity?: number;
  /** Changed lines as GitHub counts them, known even for files whose diff GitHub does not show. */
  readonly additions?: number;
  readonly deletions?: number;
}

export function listChangedFile(file: ChangedFile): ListedChange {
  return {
    path: file.filename,
    status: listedStatus(file.status),
    ...(file.previousFilename === null ? {} : { previous_path: file.previousFilename }),
    ...(file.similarity === undefined ? {} : { similarity: file.similarity }),
    additions: file.additions,
    deletions: file.deletions,
  };
}
