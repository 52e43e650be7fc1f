// Builds small git repositories with the native git binary for tests (Loupe itself never runs
// git). Every command runs with an isolated HOME, no system config and a fixed identity, so the
// machine's git configuration (signing, hooks, default branch, autocrlf) cannot leak into a test.
//
//   const repo = createRepo();
//   repo.write("src/a.ts", "export {};\n");
//   const first = repo.commit("first");
//   repo.branch("feature"); repo.write("b.bin", Buffer.from([0, 1])); const second = repo.commit("b");
//   repo.tag("v1", { annotated: true });
//   repo.dispose();
//
// Commands are synchronous: never use `repo.git` to talk to a server running in the same
// process (it would block the event loop the server needs); use `runGitAsync` for that.

import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface FixtureRepo {
  /** Work tree (or, for a bare repository, the git directory). */
  readonly dir: string;
  /** The private HOME its git commands run with (pass it to `runGitAsync`). */
  readonly home: string;
  /** Writes a file relative to the work tree, creating parent directories. */
  write(relativePath: string, content: string | Uint8Array): void;
  /** Removes a file or directory from the work tree. */
  remove(relativePath: string): void;
  /** Sets the file's mode, e.g. 0o755 (git records only the executable bit). */
  chmod(relativePath: string, mode: number): void;
  /** Stages everything (`git add -A`) and commits; returns the new commit's 40-hex SHA. */
  commit(message: string, options?: { allowEmpty?: boolean }): string;
  /** Creates and switches to a branch (from `from`, default the current commit). */
  branch(name: string, from?: string): void;
  /** Switches to a branch or commit. */
  checkout(revision: string): void;
  /** Creates a lightweight tag, or an annotated one; returns the tag's own object id. */
  tag(name: string, options?: { annotated?: boolean; target?: string }): string;
  /** Resolves a revision to a 40-hex object id. */
  revParse(revision: string): string;
  /** Runs `git <args>` in `dir`; returns stdout without the trailing newline. */
  git(...args: string[]): string;
  /** Removes the repository and its private HOME. */
  dispose(): void;
}

export interface CreateRepoOptions {
  /** `git init --bare` instead of a work tree. */
  readonly bare?: boolean;
  /** Parent directory for the temporary root (default `os.tmpdir()`). */
  readonly tmpRoot?: string;
}

const IDENTITY = ["-c", "user.name=Loupe Fixture", "-c", "user.email=fixture@loupe.invalid"];
const SAFE_CONFIG = ["-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false", "-c", "core.autocrlf=false"];

/** Environment for native git: inherited PATH etc., but no GIT_* variables and a private HOME. */
export function gitEnvironment(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith("GIT_")) env[key] = value;
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    LC_ALL: "C",
  };
}

/** Runs native git without blocking the event loop (for servers in the same process). */
export function runGitAsync(
  args: readonly string[],
  options: { cwd?: string; home: string },
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      [...IDENTITY, ...SAFE_CONFIG, ...args],
      { cwd: options.cwd ?? options.home, env: gitEnvironment(options.home), maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`git ${args.join(" ")} failed: ${stderr}`, { cause: error }));
        else resolve(stdout.replace(/\n$/, ""));
      },
    );
  });
}

/**
 * The commit HEAD names in a work tree's repository, read from its files (a `git rev-parse` is a
 * process, and every fixture commit asked for one): HEAD holds a commit id or `ref: <name>`, and
 * the ref is a loose file or a line of packed-refs (after an automatic gc).
 */
export function headCommit(workTree: string): string {
  const gitDir = path.join(workTree, ".git");
  const head = fs.readFileSync(path.join(gitDir, "HEAD"), "utf8").trim();
  const ref = /^ref: (.+)$/.exec(head)?.[1];
  if (ref === undefined) return head;
  const loose = path.join(gitDir, ...ref.split("/"));
  if (fs.existsSync(loose)) return fs.readFileSync(loose, "utf8").trim();
  const packed = fs.readFileSync(path.join(gitDir, "packed-refs"), "utf8");
  const line = packed.split("\n").find((entry) => entry.endsWith(` ${ref}`));
  if (line === undefined) throw new Error(`git fixture: HEAD names ${ref}, which does not exist`);
  return line.slice(0, 40);
}

export function createRepo(options: CreateRepoOptions = {}): FixtureRepo {
  const root = fs.mkdtempSync(path.join(options.tmpRoot ?? os.tmpdir(), "loupe-fixture-"));
  const home = path.join(root, "home");
  const dir = path.join(root, options.bare === true ? "repo.git" : "repo");
  fs.mkdirSync(home);
  fs.mkdirSync(dir);
  const env = gitEnvironment(home);

  const git = (...args: string[]): string =>
    execFileSync("git", [...IDENTITY, ...SAFE_CONFIG, ...args], {
      cwd: dir,
      env,
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
      stdio: ["ignore", "pipe", "pipe"],
    }).replace(/\n$/, "");

  git("init", "--quiet", "--initial-branch=main", ...(options.bare === true ? ["--bare"] : []));
  const inside = (relativePath: string): string => path.join(dir, ...relativePath.split("/"));

  return {
    dir,
    home,
    write(relativePath, content) {
      const file = inside(relativePath);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
    },
    remove(relativePath) {
      fs.rmSync(inside(relativePath), { recursive: true, force: true });
    },
    chmod(relativePath, mode) {
      fs.chmodSync(inside(relativePath), mode);
    },
    commit(message, commitOptions = {}) {
      git("add", "-A");
      git(
        "commit",
        "--quiet",
        "--no-verify",
        ...(commitOptions.allowEmpty ? ["--allow-empty"] : []),
        "-m",
        message,
      );
      return headCommit(dir);
    },
    branch(name, from) {
      git("checkout", "--quiet", "-b", name, ...(from === undefined ? [] : [from]));
    },
    checkout(revision) {
      git("checkout", "--quiet", revision);
    },
    tag(name, tagOptions = {}) {
      const target = tagOptions.target === undefined ? [] : [tagOptions.target];
      if (tagOptions.annotated === true) git("tag", "-a", "-m", `tag ${name}`, name, ...target);
      else git("tag", name, ...target);
      return git("rev-parse", `refs/tags/${name}`);
    },
    revParse(revision) {
      return git("rev-parse", "--verify", "--quiet", revision);
    },
    git,
    dispose() {
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** One commit of `importHistory`: the files it writes over its parent's tree. */
export interface ImportedCommit {
  /** The branch it is committed on. */
  readonly branch: string;
  /**
   * Where a branch's first commit starts: a branch committed earlier in the history, or a commit
   * id already in the repository. Later commits of the branch follow its tip; without it, a
   * branch's first commit is a root commit.
   */
  readonly from?: string;
  readonly message: string;
  /** Text is a regular file's content; an executable file or a symbolic link say so. */
  readonly files: Readonly<Record<string, string | Uint8Array | ImportedFile>>;
  /** The commit's tree is its files alone, none of its parent's (fast-import's `deleteall`). */
  readonly replaceTree?: boolean;
}

const NEWLINE = Buffer.from("\n");

/** A file of `importHistory` other than a regular one. */
export type ImportedFile =
  | { readonly content: string; readonly executable: true }
  | { readonly symlink: string };

/**
 * Commits a whole history in one `git fast-import` process, then checks `checkout` out into the
 * work tree: three processes, where `write`/`commit`/`branch` take one a branch and three a
 * commit (most of an end-to-end world's start-up processes). Commits are dated now, by the
 * fixture identity, like `commit`'s. Returns each commit's id, in order.
 */
export function importHistory(
  repo: FixtureRepo,
  commits: readonly ImportedCommit[],
  /** The branch checked out into the work tree; null leaves the work tree as it is. */
  checkout: string | null,
): string[] {
  const stream: (string | Uint8Array)[] = [];
  const data = (content: string | Uint8Array) => {
    const bytes = Buffer.from(content);
    stream.push(`data ${bytes.length}`, bytes);
  };
  const tips = new Map<string, number>();
  const who = "Loupe Fixture <fixture@loupe.invalid> now";
  for (const [i, commit] of commits.entries()) {
    const mark = i + 1;
    stream.push(`commit refs/heads/${commit.branch}`, `mark :${mark}`, `author ${who}`, `committer ${who}`);
    data(`${commit.message}\n`);
    const tip = tips.get(commit.branch);
    const from = commit.from === undefined ? undefined : tips.get(commit.from);
    if (tip !== undefined) stream.push(`from :${tip}`);
    else if (from !== undefined) stream.push(`from :${from}`);
    else if (commit.from !== undefined) stream.push(`from ${commit.from}`);
    if (commit.replaceTree === true) stream.push("deleteall");
    for (const [file, content] of Object.entries(commit.files)) {
      if (/[\n"]/.test(file)) throw new Error(`importHistory: a path fast-import would need quoted: ${file}`);
      const [mode, bytes] =
        typeof content === "string" || content instanceof Uint8Array
          ? ["100644", content]
          : "symlink" in content
            ? ["120000", content.symlink]
            : ["100755", content.content];
      stream.push(`M ${mode} inline ${file}`);
      data(bytes);
    }
    stream.push("");
    tips.set(commit.branch, mark);
  }
  const marks = path.join(repo.home, `marks-${process.hrtime.bigint()}`);
  execFileSync(
    "git",
    [...IDENTITY, ...SAFE_CONFIG, "fast-import", "--quiet", "--date-format=now", `--export-marks=${marks}`],
    {
      cwd: repo.dir,
      env: gitEnvironment(repo.home),
      input: Buffer.concat(stream.flatMap((part) => [Buffer.from(part), NEWLINE])),
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  const ids = new Map(
    fs
      .readFileSync(marks, "utf8")
      .trim()
      .split("\n")
      .map((line) => line.split(" ") as [string, string]),
  );
  fs.rmSync(marks);
  if (checkout !== null) repo.git("checkout", "--quiet", "--force", checkout);
  return commits.map((_, i) => ids.get(`:${i + 1}`)!);
}

/** A branch of `createOneChangeRepo`: `src/a.ts` set to `export const a = <a>;`, from `from`. */
export interface OneChange {
  readonly branch: string;
  readonly a: number;
  /** The branch or commit it starts from (default `main`). */
  readonly from?: string;
}

/**
 * The end-to-end tests' repository: `main` with `src/a.ts` (`export const a = 1;`), and branches
 * that each edit that one file — by default `change`, where `a` is 2. `main` is checked out after.
 */
export function createOneChangeRepo(
  changes: readonly OneChange[] = [{ branch: "change", a: 2 }],
): FixtureRepo {
  const repo = createRepo();
  importHistory(
    repo,
    [
      { branch: "main", message: "a", files: { "src/a.ts": "export const a = 1;\n" } },
      ...changes.map((change) => ({
        branch: change.branch,
        from: change.from ?? "main",
        message: `a is ${change.a}`,
        files: { "src/a.ts": `export const a = ${change.a};\n` },
      })),
    ],
    "main",
  );
  return repo;
}
