// The changed files of a merge request, from GitLab's paged list of its diffs (GET …/diffs, 100 a
// page), in the port's words. GitLab's diff is from diff_refs.base_sha — the merge-base — to the
// head. GitLab's limits are never dropped silently: a diff it collapsed or found too large is
// listed with no patch (the change step says so), a list GitLab cut (its changes_count "N+"),
// longer than Loupe reads or than GitLab's default of 1,000 files is marked cut, and a head that
// moved while listing is named.

import type { ChangedFile, ChangeSet } from "../../domain/changed-file.ts";
import { patchOf } from "../../review/patch-hunks.ts";
import type { GitLabApi } from "./gitlab-api.ts";
import { projectId } from "./gitlab-api.ts";
import { type DiffRefs, type GitLabTarget, type MergeRequestAnswer, projectPath } from "./merge-request.ts";

/** One file of GET /projects/:id/merge_requests/:iid/diffs. */
export interface MergeRequestDiff {
  readonly old_path: string;
  readonly new_path: string;
  readonly new_file: boolean;
  readonly renamed_file: boolean;
  readonly deleted_file: boolean;
  readonly diff: string;
  readonly collapsed?: boolean;
  readonly too_large?: boolean;
}

/** GitLab's default `max_diff_files`: a merge request's diff lists no more. */
const GITLAB_MAX_DIFF_FILES = 1_000;
/** Pages of 100 Loupe reads (GitHub's comparison lists 3,000 files; the same bound here). */
const MAX_PAGES = 30;

export async function mergeRequestChanges(
  api: GitLabApi,
  target: GitLabTarget,
  input: { readonly diffRefs: DiffRefs; readonly headSha: string },
): Promise<ChangeSet> {
  const id = projectId(projectPath(target));
  const path = `/projects/${id}/merge_requests/${target.pullNumber}`;
  const listed = await api.pages<MergeRequestDiff>(`${path}/diffs`, {}, MAX_PAGES);
  const now = await api.get<MergeRequestAnswer>(path);
  return {
    mergeBaseSha: input.diffRefs.base_sha,
    files: listed.items.map(changedFile),
    filesTruncated: listed.more || listed.items.length >= GITLAB_MAX_DIFF_FILES || cutByGitLab(now),
    headMovedTo: now.sha === input.headSha ? null : now.sha,
  };
}

/**
 * GitLab stops its diff at the instance's file limit or at the file that brings it to the line
 * limit (1,000 files, 50,000 lines by default; admins may lower both), and GET …/diffs says
 * nothing of it: the merge request's changes_count then reads "N+" (real_size of its
 * DiffCollection), so a cut below 1,000 files, by lines or a lowered limit, is seen too.
 */
function cutByGitLab(mr: MergeRequestAnswer): boolean {
  return typeof mr.changes_count === "string" && mr.changes_count.endsWith("+");
}

export function changedFile(diff: MergeRequestDiff): ChangedFile {
  const cut = diff.too_large === true || diff.collapsed === true || diff.diff === "";
  return {
    filename: diff.new_path,
    status: diff.new_file
      ? "added"
      : diff.deleted_file
        ? "removed"
        : diff.renamed_file
          ? "renamed"
          : "modified",
    previousFilename: diff.renamed_file ? diff.old_path : null,
    ...(cut ? { patch: null, additions: 0, deletions: 0 } : patchOf(diff.diff)),
  };
}
