// A small pull request for the GitHub App tests, as real git history: `main` has moved on since
// the feature branch left it (so base.sha ≠ merge-base, as on GitHub), the feature branch edits
// src/service.ts, adds src/util.ts and a lockfile (excluded by the default paths). `compareData`
// answers GET /compare/{base}...{head} the way GitHub does, with patches taken from native git.

import { createRepo, type FixtureRepo, importHistory } from "./git-fixture.ts";
import { publishRepository, setRef } from "./git-server-repos.ts";

export const SERVICE_BASE = [
  "export function save(db, record) {",
  "  validate(record);",
  "  db.write(record);",
  "  return record;",
  "}",
  "",
].join("\n");

export const SERVICE_HEAD = [
  "export function save(db, record) {",
  "  db.write(record);",
  "  validate(record);",
  "  return record;",
  "}",
  "",
].join("\n");

export interface PullRequestFixture {
  readonly repo: FixtureRepo;
  readonly mergeBaseSha: string;
  readonly baseSha: string;
  readonly headSha: string;
  /** Commits one more change on the feature branch; returns the new head SHA. */
  push(path: string, content: string): string;
  /** GitHub's compare base...head answer for the given head (default: the first head). */
  compareData(headSha?: string): Record<string, unknown>;
  /** Bare copies under the git server root, one per repository name, with refs/pull/<n>/head. */
  publish(root: string, names: readonly string[], pullNumber: number): void;
}

export function createPullRequestFixture(): PullRequestFixture {
  const repo = createRepo();
  const [mergeBaseSha, headSha, baseSha] = importHistory(
    repo,
    [
      {
        branch: "main",
        message: "base",
        files: { "README.md": "# Hello\n", "src/service.ts": SERVICE_BASE },
      },
      {
        branch: "feature",
        from: "main",
        message: "feature: write first",
        files: {
          "src/service.ts": SERVICE_HEAD,
          "src/util.ts": "export const twice = (n: number) => n * 2;\n",
          "package-lock.json": '{ "lockfileVersion": 3 }\n',
        },
      },
      { branch: "main", message: "main moves on", files: { "README.md": "# Hello\n\nMain moved on.\n" } },
    ],
    "feature",
  ) as [string, string, string];

  // A commit never changes, so neither does its comparison: each head commit's is computed once
  // per fixture (ten git processes for this one) and handed out as a copy the caller may change.
  // A branch name moves, so it is compared anew each time.
  const comparisons = new Map<string, Record<string, unknown>>();
  const compareData = (head = headSha): Record<string, unknown> => {
    if (!/^[0-9a-f]{40}$/.test(head)) return compareWithGit(head);
    const comparison = comparisons.get(head) ?? compareWithGit(head);
    comparisons.set(head, comparison);
    return structuredClone(comparison);
  };
  const compareWithGit = (head: string): Record<string, unknown> => {
    const statuses = repo.git("diff", "--name-status", mergeBaseSha, head).split("\n").filter(Boolean);
    const files = statuses.map((line) => {
      const [code, filename] = line.split("\t") as [string, string];
      const [additions, deletions] = repo
        .git("diff", "--numstat", mergeBaseSha, head, "--", filename)
        .split("\t")
        .map(Number) as [number, number];
      const diff = repo.git("diff", "-U3", mergeBaseSha, head, "--", filename);
      const patch = diff.slice(diff.indexOf("@@"));
      const status = code === "A" ? "added" : code === "D" ? "removed" : "modified";
      return { filename, status, additions, deletions, changes: additions + deletions, patch };
    });
    return {
      status: "diverged",
      merge_base_commit: { sha: mergeBaseSha },
      base_commit: { sha: baseSha },
      files,
    };
  };

  return {
    repo,
    mergeBaseSha,
    baseSha,
    headSha,
    push(path, content) {
      repo.write(path, content);
      return repo.commit(`change ${path}`);
    },
    compareData,
    publish(root, names, pullNumber) {
      for (const name of names) {
        const bare = publishRepository(root, name, repo);
        setRef(bare, `refs/pull/${pullNumber}/head`, repo.revParse("feature"));
      }
    },
  };
}
