// GET /repos/:o/:r/compare/:base...:head computed from the real repository with native git, the
// way GitHub computes it: the three-dot diff runs from the merge base to the head, and each
// file's `patch` is the unified diff with 3 lines of context, hunk headers first, no file header.
// Runs git asynchronously: this code lives inside the fake's own HTTP server.

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

/** Resolves a branch name or SHA to a commit id; undefined when it names no commit. */
export async function resolveCommit(where: GitLocation, revision: string): Promise<string | undefined> {
  if (!/^[\w./-]+$/.test(revision) || revision.startsWith("-")) return undefined;
  try {
    return await runGitAsync(["rev-parse", "--verify", "--quiet", `${revision}^{commit}`], {
      cwd: where.gitdir,
      home: where.home,
    });
  } catch {
    return undefined;
  }
}

/** Computes the comparison; `threeDot` false means base..head (a direct diff from base). */
export async function compareCommits(
  where: GitLocation,
  base: string,
  head: string,
  threeDot = true,
): Promise<Comparison> {
  const git = (...args: string[]) => runGitAsync(args, { cwd: where.gitdir, home: where.home });
  const mergeBaseSha = await git("merge-base", base, head);
  const from = threeDot ? mergeBaseSha : base;
  const aheadBy = Number(await git("rev-list", "--count", `${base}..${head}`));
  const behindBy = Number(await git("rev-list", "--count", `${head}..${base}`));
  const commitsText = await git("rev-list", "--reverse", `${base}..${head}`);
  const nameStatus = (await git("diff", "--name-status", "-z", "-M", from, head)).split("\0");
  const files: CompareFile[] = [];
  for (let i = 0; i < nameStatus.length; ) {
    const code = nameStatus[i++] ?? "";
    if (code === "") continue;
    const letter = code[0] ?? "M";
    const paths =
      letter === "R" || letter === "C" ? [nameStatus[i++]!, nameStatus[i++]!] : [nameStatus[i++]!];
    files.push(await compareFile(git, from, head, STATUS[letter] ?? "modified", paths));
  }
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
    baseSha: await git("rev-parse", `${base}^{commit}`),
    mergeBaseSha,
    headSha: await git("rev-parse", `${head}^{commit}`),
    commits: commitsText === "" ? [] : commitsText.split("\n"),
    files,
  };
}

async function compareFile(
  git: (...args: string[]) => Promise<string>,
  from: string,
  head: string,
  status: CompareFile["status"],
  paths: readonly string[],
): Promise<CompareFile> {
  const filename = paths[paths.length - 1]!;
  const diff = await git("diff", "-U3", "--no-color", "--no-ext-diff", "-M", from, head, "--", ...paths);
  const start = diff.startsWith("@@") ? 0 : diff.indexOf("\n@@");
  const patch = start === -1 ? undefined : diff.slice(start === 0 ? 0 : start + 1);
  let additions = 0;
  let deletions = 0;
  if (patch !== undefined) {
    for (const line of patch.split("\n")) {
      if (line.startsWith("+")) additions += 1;
      else if (line.startsWith("-")) deletions += 1;
    }
  }
  const blob = status === "removed" ? `${from}:${paths[0]}` : `${head}:${filename}`;
  return {
    sha: await git("rev-parse", blob).catch(() => null),
    filename,
    status,
    additions,
    deletions,
    changes: additions + deletions,
    ...(patch === undefined ? {} : { patch }),
    ...(paths.length === 2 ? { previous_filename: paths[0]! } : {}),
  };
}
