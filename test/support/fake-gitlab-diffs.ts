// A merge request's diffs as GitLab lists them (GET …/merge_requests/:iid/diffs), made by real git
// from the fake's bare repository: `git diff -M` from the merge-base to the head, one entry per
// file with GitLab's fields (old/new path, new/renamed/deleted, the hunks from the first `@@`,
// binary files with an empty diff). Typed against the client's schema of the same answer.

import { execFileSync } from "node:child_process";
import type { MergeRequestDiffSchema } from "@gitbeaker/core";
import { gitEnvironment } from "./git-fixture.ts";

export type FakeDiff = Pick<
  MergeRequestDiffSchema,
  "old_path" | "new_path" | "a_mode" | "b_mode" | "new_file" | "renamed_file" | "deleted_file" | "diff"
> & { collapsed: boolean; too_large: boolean; generated_file: boolean };

export function git(gitdir: string, home: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd: gitdir,
    env: gitEnvironment(home),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

export function gitLabDiffs(gitdir: string, home: string, from: string, to: string): FakeDiff[] {
  const text = git(gitdir, home, "diff", "--no-color", "-M", "--full-index", from, to);
  return text
    .split(/^(?=diff --git )/m)
    .filter((chunk) => chunk.startsWith("diff --git "))
    .map(diffOf);
}

function diffOf(chunk: string): FakeDiff {
  const lines = chunk.split("\n");
  const header = lines
    .slice(
      0,
      Math.max(
        1,
        lines.findIndex((l) => l.startsWith("@@")),
      ),
    )
    .join("\n");
  const [, a, b] = /^diff --git a\/(.*) b\/(.*)$/m.exec(header) ?? [];
  const renameFrom = /^rename from (.*)$/m.exec(header)?.[1];
  const renameTo = /^rename to (.*)$/m.exec(header)?.[1];
  const hunkStart = chunk.indexOf("\n@@");
  const mode = (m: RegExpExecArray | null) => m?.[1] ?? "100644";
  return {
    old_path: renameFrom ?? a ?? "",
    new_path: renameTo ?? b ?? "",
    a_mode: /^new file mode/m.test(header) ? "0" : mode(/^(?:old mode|index \S+) (\d+)/m.exec(header)),
    b_mode: /^deleted file mode/m.test(header)
      ? "0"
      : mode(/^(?:new mode|new file mode|index \S+) (\d+)/m.exec(header)),
    new_file: /^new file mode/m.test(header),
    renamed_file: renameFrom !== undefined,
    deleted_file: /^deleted file mode/m.test(header),
    diff: hunkStart < 0 ? "" : chunk.slice(hunkStart + 1),
    collapsed: false,
    too_large: false,
    generated_file: false,
  };
}

/**
 * An instance's diff limits (Admin > Settings > Diff limits). GitLab's defaults are 1,000 files
 * and 50,000 lines (ApplicationSetting's diff_max_files and diff_max_lines); admins may lower
 * both. `safeMaxFiles`/`safeMaxLines`: an older instance collapses every file past these in the
 * API's answer too (collapsed: true, an empty diff).
 */
export interface GitLabDiffLimits {
  readonly maxFiles: number;
  readonly maxLines: number;
  readonly safeMaxFiles?: number;
  readonly safeMaxLines?: number;
}

export const GITLAB_DEFAULT_DIFF_LIMITS: GitLabDiffLimits = { maxFiles: 1_000, maxLines: 50_000 };

/**
 * The diffs GitLab keeps, as Gitlab::Git::DiffCollection#each_serialized_patch does
 * (lib/gitlab/git/diff_collection.rb): past `maxFiles` files it stops; a file over the safe
 * limits is collapsed (its diff emptied) before it is counted; the file whose lines bring the
 * count to `maxLines` is discarded with every file after it. Either way the collection overflows,
 * and the merge request's changes_count (DiffCollection#real_size) reads "N+".
 */
export function cutLikeGitLab(
  diffs: readonly FakeDiff[],
  limits: GitLabDiffLimits,
): { readonly shown: FakeDiff[]; readonly overflow: boolean } {
  const shown: FakeDiff[] = [];
  let lineCount = 0;
  for (const diff of diffs) {
    if (shown.length >= limits.maxFiles) return { shown, overflow: true };
    const lines = (d: FakeDiff) => (d.diff === "" ? 0 : d.diff.replace(/\n$/, "").split("\n").length);
    const overSafe =
      (limits.safeMaxFiles !== undefined && shown.length >= limits.safeMaxFiles) ||
      (limits.safeMaxLines !== undefined && lineCount > limits.safeMaxLines);
    const kept = overSafe && lines(diff) > 0 ? { ...diff, diff: "", collapsed: true } : diff;
    lineCount += lines(kept);
    if (lineCount >= limits.maxLines) return { shown, overflow: true };
    shown.push(kept);
  }
  return { shown, overflow: false };
}
