// The pull request's three-dot diff as GitHub computes it: compare base...head gives the
// merge-base commit and, per file, the patch whose hunks decide which lines can carry comments.
// A comparison lists at most 300 files; for a larger pull request the files come from
// pulls.listFiles instead, which lists up to 3,000.

import type { ChangedFile, ChangeSet, ChangeStatus } from "../../domain/changed-file.ts";
import { parseJsonInSlices, UNPARSED_BODY } from "./json-in-slices.ts";
import { listPullRequestInSlices } from "./list-in-slices.ts";
import type { GitHubClient, RepoRef } from "./octokit.ts";

export const COMPARE_FILE_CAP = 300;
export const LIST_FILES_CAP = 3000;

/** One file of GitHub's comparison (or of pulls.listFiles), as GitHub writes it. */
export interface GitHubFile {
  readonly filename: string;
  readonly status: string;
  readonly previous_filename?: string;
  readonly patch?: string;
  readonly additions: number;
  readonly deletions: number;
  readonly contents_url?: string;
}

/**
 * GitHub's file status in the port's words. GitHub documents two more: `changed` (only the mode
 * changed, or the type), which is the port's `changed` too, and `unchanged`, a file GitHub lists
 * without a change of its own, which Loupe treats as every host's modified file: its patch, if any,
 * is read and anchored like any other. A word GitHub adds later is read the same way: a listed file
 * changed somehow, and reviewing it as modified hides nothing, where dropping it would.
 */
export function changeStatus(status: string): ChangeStatus {
  switch (status) {
    case "added":
    case "modified":
    case "removed":
    case "renamed":
    case "copied":
    case "changed":
      return status;
    default:
      return "modified";
  }
}

export function toChangedFile(f: GitHubFile): ChangedFile {
  return {
    filename: f.filename,
    status: changeStatus(f.status),
    previousFilename: f.previous_filename ?? null,
    patch: f.patch ?? null,
    additions: f.additions,
    deletions: f.deletions,
  };
}

/** The commit a listed file was read at: the `ref` of its contents URL. */
function listedAt(file: GitHubFile): string | null {
  if (file.contents_url === undefined) return null;
  try {
    return new URL(file.contents_url).searchParams.get("ref");
  } catch {
    return null;
  }
}

interface GitHubChangeSet {
  readonly merge_base_commit: { readonly sha: string };
  readonly files?: readonly GitHubFile[];
}

export async function comparePullRequest(
  octokit: GitHubClient,
  input: RepoRef & { readonly pullNumber: number; readonly baseSha: string; readonly headSha: string },
): Promise<ChangeSet> {
  // Both answers are read with parseJsonInSlices: with long names they run to megabytes.
  const response = await octokit.rest.repos.compareCommitsWithBasehead({
    owner: input.owner,
    repo: input.repo,
    basehead: `${input.baseSha}...${input.headSha}`,
    request: UNPARSED_BODY,
  });
  const data = (await parseJsonInSlices(response.data, "GitHub's comparison")) as GitHubChangeSet;
  const mergeBaseSha = data.merge_base_commit.sha;
  const compared = data.files ?? [];
  if (compared.length < COMPARE_FILE_CAP) {
    return { mergeBaseSha, files: compared.map(toChangedFile), filesTruncated: false, headMovedTo: null };
  }
  const listed = await listFiles(octokit, input);
  const moved = listed.map(listedAt).find((sha) => sha !== null && sha !== input.headSha);
  return {
    mergeBaseSha,
    files: listed.map(toChangedFile),
    filesTruncated: listed.length >= LIST_FILES_CAP,
    headMovedTo: moved ?? null,
  };
}

/** pulls.listFiles, every page. */
function listFiles(
  octokit: GitHubClient,
  input: RepoRef & { readonly pullNumber: number },
): Promise<GitHubFile[]> {
  return listPullRequestInSlices<GitHubFile>(
    octokit,
    input,
    octokit.rest.pulls.listFiles,
    "GitHub's list of the pull request's files",
  );
}
