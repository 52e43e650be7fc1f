// The pull request's three-dot diff as GitHub computes it: compare base...head gives the
// merge-base commit and, per file, the patch whose hunks decide which lines can carry comments.

import type { GitHubClient, RepoRef } from "./octokit.ts";

export interface ChangedFile {
  readonly filename: string;
  readonly status: string;
  readonly previousFilename: string | null;
  /** GitHub's unified hunks; absent for binary files and diffs over GitHub's limits. */
  readonly patch: string | null;
  readonly additions: number;
  readonly deletions: number;
}

export interface Comparison {
  readonly mergeBaseSha: string;
  readonly files: readonly ChangedFile[];
  /** GitHub lists at most 300 files per comparison; true when the list may be cut. */
  readonly filesTruncated: boolean;
}

const GITHUB_COMPARE_FILE_CAP = 300;

export async function comparePullRequest(
  octokit: GitHubClient,
  input: RepoRef & { readonly baseSha: string; readonly headSha: string },
): Promise<Comparison> {
  const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
    owner: input.owner,
    repo: input.repo,
    basehead: `${input.baseSha}...${input.headSha}`,
  });
  const files = (data.files ?? []).map(
    (f): ChangedFile => ({
      filename: f.filename,
      status: f.status,
      previousFilename: f.previous_filename ?? null,
      patch: f.patch ?? null,
      additions: f.additions,
      deletions: f.deletions,
    }),
  );
  return {
    mergeBaseSha: data.merge_base_commit.sha,
    files,
    filesTruncated: files.length >= GITHUB_COMPARE_FILE_CAP,
  };
}
