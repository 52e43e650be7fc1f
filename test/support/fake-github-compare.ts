// GET /repos/:o/:r/compare/:base...:head computed from the real repository with native git, the
// way GitHub computes it: the three-dot diff runs from the merge base to the head, and each
// file's `patch` is the unified diff with 3 lines of context, hunk headers first, no file header.
// Runs git asynchronously: this code lives inside the fake's own HTTP server; a comparison's
// independent git commands run side by side, and two commits are compared once.

import { runGitAsync } from "./git-fixture.ts";

export interface CompareFile {
  readonly sha: string | null;
  readonly filename: string;
  readonly status: "added" | "removed" | "modified" | "renamed" | "copied" | "changed" | "unchanged";
  readonly additions: number;
  readonly deletions: number;
  readonly changes: number;
  /** Absent for binary files, as on GitHub. */
  readonly patch?: string;
  readonly previous_filename?: string;
}

/**
 * GitHub's limit on one file's diff: past 20,000 lines or 1 MB of raw diff it lists the file with
 * its counts but no `patch` ("What are the limits for viewing content and diffs in my repository").
 */
export const FILE_DIFF_LINES = 20_000;
export const FILE_DIFF_BYTES = 1024 * 1024;

/** The file as GitHub lists it under its per-file diff limit: a patch past it is left out. */
export function withinFileDiffLimit(file: CompareFile): CompareFile {
  if (file.patch === undefined) return file;
  if (file.changes <= FILE_DIFF_LINES && Buffer.byteLength(file.patch) <= FILE_DIFF_BYTES) return file;
  const { patch: _omitted, ...rest } = file;
  return rest;
}

export interface Comparison {
  readonly status: "ahead" | "behind" | "diverged" | "identical";
  readonly aheadBy: number;
  readonly behindBy: number;
  readonly baseSha: string;
  readonly mergeBaseSha: string;
  readonly headSha: string;
  readonly commits: readonly string[];
  readonly files: readonly CompareFile[];
}

const STATUS: Record<string, CompareFile["status"]> = {
  A: "added",
  D: "removed",
  M: "modified",
  R: "renamed",
  C: "copied",
  T: "changed",
};

export interface GitLocation {
  /** The bare repository. */
  readonly gitdir: string;
  /** Private HOME for the git commands. */
  readonly home: string;
}

/**
 * The commit a full object id names, per repository: an object never changes and the fake never
 * removes one, so an id that named a commit names it for good (a branch name moves, and is asked
 * each time; an id that names nothing yet may be pushed later, and is not kept). Each review asked
 * for the same few ids a dozen times, a git process each.
 */
const COMMIT_OF_ID = new Map<string, string>();
const FULL_ID = /^[0-9a-f]{40}$/;

/** `git rev-parse <args> <revision>^{commit}`, from COMMIT_OF_ID when the revision is a full id. */
async function revParseCommit(
  where: GitLocation,
  revision: string,
  args: readonly string[] = [],
): Promise<string> {
  const key = `${where.gitdir}\0${revision}`;
  const known = COMMIT_OF_ID.get(key);
  if (known !== undefined) return known;
  const commit = await runGitAsync(["rev-parse", ...args, `${revision}^{commit}`], {
    cwd: where.gitdir,
    home: where.home,
  });
  if (FULL_ID.test(revision)) COMMIT_OF_ID.set(key, commit);
  return commit;
}

/** Resolves a branch name or SHA to a commit id; undefined when it names no commit. */
export async function resolveCommit(where: GitLocation, revision: string): Promise<string | undefined> {
  if (!/^[\w./-]+$/.test(revision) || revision.startsWith("-")) return undefined;
  try {
    return await revParseCommit(where, revision, ["--verify", "--quiet"]);
  } catch {
    return undefined;
  }
}

/** A file's text at a revision (the contents API on a branch); undefined when it is not a file there. */
export async function readFileAt(
  where: GitLocation,
  revision: string,
  path: string,
): Promise<string | undefined> {
  if (!/^[\w./-]+$/.test(revision) || path.startsWith("-") || path.includes("..")) return undefined;
  try {
    const kind = await runGitAsync(["cat-file", "-t", `${revision}:${path}`], {
      cwd: where.gitdir,
      home: where.home,
    });
    if (kind !== "blob") return undefined;
    return await runGitAsync(["show", `${revision}:${path}`], { cwd: where.gitdir, home: where.home });
  } catch {
    return undefined;
  }
}

/** Two commits' comparison never changes: each is computed once per repository, base, head. */
const COMPARISONS = new Map<string, Promise<Comparison>>();

/**
 * Computes the comparison; `threeDot` false means base..head (a direct diff from base). Branch
 * names are resolved first (a branch moves), then the comparison of the two commits is computed
 * once, its independent git commands side by side.
 */
export async function compareCommits(
  where: GitLocation,
  base: string,
  head: string,
  threeDot = true,
): Promise<Comparison> {
  const git = (...args: string[]) => runGitAsync(args, { cwd: where.gitdir, home: where.home });
  const [baseSha, headSha] = await Promise.all([revParseCommit(where, base), revParseCommit(where, head)]);
  const key = `${where.gitdir}\0${baseSha}\0${headSha}\0${threeDot}`;
  let comparison = COMPARISONS.get(key);
  if (comparison === undefined) {
    comparison = compareShas(where, git, baseSha, headSha, threeDot);
    COMPARISONS.set(key, comparison);
    comparison.catch(() => COMPARISONS.delete(key));
  }
  return comparison;
}

async function compareShas(
  where: GitLocation,
  git: (...args: string[]) => Promise<string>,
  baseSha: string,
  headSha: string,
  threeDot: boolean,
): Promise<Comparison> {
  // Ahead by the commits base..head lists; behind by those head..base would.
  const [mergeBaseSha, behind, commitsText] = await Promise.all([
    git("merge-base", baseSha, headSha),
    git("rev-list", "--count", `${headSha}..${baseSha}`),
    git("rev-list", "--reverse", `${baseSha}..${headSha}`),
  ]);
  const commits = commitsText === "" ? [] : commitsText.split("\n");
  const aheadBy = commits.length;
  const behindBy = Number(behind);
  const files = await filesBetween(where, git, threeDot ? mergeBaseSha : baseSha, headSha);
  return {
    status:
      aheadBy === 0 && behindBy === 0
        ? "identical"
        : behindBy === 0
          ? "ahead"
          : aheadBy === 0
            ? "behind"
            : "diverged",
    aheadBy,
    behindBy,
    baseSha,
    mergeBaseSha,
    headSha,
    commits,
    files,
  };
}

/** Two commits' files never change: a 2,000-file change is diffed once, not once per page. */
const FILES = new Map<string, Promise<CompareFile[]>>();

function filesBetween(
  where: GitLocation,
  git: (...args: string[]) => Promise<string>,
  from: string,
  head: string,
): Promise<CompareFile[]> {
  const key = `${where.gitdir}\0${from}\0${head}`;
  let files = FILES.get(key);
  if (files === undefined) {
    files = diffFiles(git, from, head);
    FILES.set(key, files);
    files.catch(() => FILES.delete(key));
  }
  return files;
}

async function diffFiles(
  git: (...args: string[]) => Promise<string>,
  from: string,
  head: string,
): Promise<CompareFile[]> {
  // The raw listing names each file's blobs itself: no listing of the two whole trees, which a
  // tree of billions of paths (a tree bomb shared by both commits) would never finish.
  const [rawText, whole] = await Promise.all([
    git("diff", "--raw", "--no-abbrev", "-z", "-M", from, head),
    git("diff", "-U3", "--no-color", "--no-ext-diff", "-M", from, head),
  ]);
  const raw = rawText.split("\0");
  const entries: { status: CompareFile["status"]; paths: string[]; sha: string | null }[] = [];
  for (let i = 0; i < raw.length; ) {
    const header = raw[i++] ?? "";
    if (header === "") continue;
    // ":<old mode> <new mode> <old sha> <new sha> <status letter and score>"
    const [, , oldSha, newSha, code = "M"] = header.slice(1).split(" ");
    const letter = code[0] ?? "M";
    const paths = letter === "R" || letter === "C" ? [raw[i++]!, raw[i++]!] : [raw[i++]!];
    const status = STATUS[letter] ?? "modified";
    entries.push({ status, paths, sha: (status === "removed" ? oldSha : newSha) ?? null });
  }
  // One diff for every file, cut at its `diff --git` headers: git writes them in the order of
  // --raw above, one a file, so the n-th section is the n-th file's.
  const sections = `\n${whole}`.split("\ndiff --git ").slice(1);
  return entries.map(({ status, paths, sha }, i) => compareFile(sections[i] ?? "", status, paths, sha));
}

function compareFile(
  diff: string,
  status: CompareFile["status"],
  paths: readonly string[],
  sha: string | null,
): CompareFile {
  const filename = paths[paths.length - 1]!;
  const start = diff.indexOf("\n@@");
  const patch = start === -1 ? undefined : diff.slice(start + 1);
  let additions = 0;
  let deletions = 0;
  if (patch !== undefined) {
    for (const line of patch.split("\n")) {
      if (line.startsWith("+")) additions += 1;
      else if (line.startsWith("-")) deletions += 1;
    }
  }
  return {
    sha,
    filename,
    status,
    additions,
    deletions,
    changes: additions + deletions,
    ...(patch === undefined ? {} : { patch }),
    ...(paths.length === 2 ? { previous_filename: paths[0]! } : {}),
  };
}
