// The programs the tests run for real, found the same way by the preflight (before the first
// test) and by the helpers that start them: on PATH, or at the path an override variable names.
// Each one says how to get it, so a machine without it gets one message listing them all rather
// than a spawn ENOENT in the middle of a suite.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export interface Program {
  /** What the message calls it. */
  readonly name: string;
  /** The variable that names its path instead of looking on PATH. */
  readonly override: string | null;
  readonly apt: string;
  /** Homebrew's formula, or `--cask NAME` for an application. */
  readonly brew: string;
  /** Its path, or null when it is not there. */
  find(env: NodeJS.ProcessEnv): string | null;
}

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The first executable `name` on env.PATH. */
export function onPath(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (dir !== "" && executable(path.join(dir, name))) return path.join(dir, name);
  }
  return null;
}

function overridden(variable: string, env: NodeJS.ProcessEnv, fallback: () => string | null) {
  const named = env[variable];
  if (named === undefined || named === "") return fallback();
  return executable(named) ? named : null;
}

const onPathProgram = (name: string, apt: string, brew: string): Program => ({
  name,
  override: null,
  apt,
  brew,
  find: (env) => onPath(name, env),
});

/** git's own helper: in `git --exec-path` (git-core), where git keeps it, not on PATH. */
function gitHttpBackend(env: NodeJS.ProcessEnv): string | null {
  const git = onPath("git", env);
  if (git === null) return null;
  const run = spawnSync(git, ["--exec-path"], { encoding: "utf8", env });
  const file = path.join(run.stdout?.trim() ?? "", "git-http-backend");
  return run.status === 0 && executable(file) ? file : null;
}

export const PROGRAMS: readonly Program[] = [
  onPathProgram("redis-server", "redis-server", "redis"),
  onPathProgram("redis-cli", "redis-server", "redis"),
  {
    name: "chromium",
    override: "CHROMIUM_PATH",
    apt: "chromium",
    brew: "--cask chromium",
    find: (env) =>
      overridden("CHROMIUM_PATH", env, () => onPath("chromium", env) ?? onPath("chromium-browser", env)),
  },
  onPathProgram("cmark-gfm", "cmark-gfm", "cmark-gfm"),
  onPathProgram("openssl", "openssl", "openssl"),
  // The deep run moves the clock a year ahead with it (test/support/year-ahead.ts).
  onPathProgram("faketime", "faketime", "libfaketime"),
  {
    name: "git-http-backend",
    override: "GIT_HTTP_BACKEND",
    apt: "git",
    brew: "git",
    find: (env) => overridden("GIT_HTTP_BACKEND", env, () => gitHttpBackend(env)),
  },
];

export function program(name: string): Program {
  const found = PROGRAMS.find((p) => p.name === name);
  if (found === undefined) throw new Error(`no program ${name}`);
  return found;
}

/** The path of a program the tests need, or an error that says how to get it. */
export function requireProgram(name: string, env: NodeJS.ProcessEnv = process.env): string {
  const p = program(name);
  const found = p.find(env);
  if (found !== null) return found;
  throw new Error(`${name} is missing for the tests:\n${missingMessage([p], env)}`);
}

/** The programs that are not there. */
export function missingPrograms(env: NodeJS.ProcessEnv = process.env): Program[] {
  return PROGRAMS.filter((p) => p.find(env) === null);
}

/** One message: each missing program and how to get it. */
export function missingMessage(missing: readonly Program[], env: NodeJS.ProcessEnv = process.env): string {
  const apt = [...new Set(missing.map((p) => p.apt))];
  const brew = [...new Set(missing.map((p) => p.brew))];
  const formulae = brew.filter((b) => !b.startsWith("--cask "));
  const casks = brew.filter((b) => b.startsWith("--cask "));
  const brewCommands = [
    ...(formulae.length > 0 ? [`brew install ${formulae.join(" ")}`] : []),
    ...casks.map((cask) => `brew install ${cask}`),
  ];
  const lines = missing.map((p) => {
    const named = p.override === null ? undefined : env[p.override];
    if (named !== undefined && named !== "")
      return `  - ${p.name}: ${p.override}=${named} is not an executable`;
    const where = p.override === null ? "on PATH" : `on PATH (or set ${p.override} to its path)`;
    return `  - ${p.name}: not found ${where}`;
  });
  return [
    ...lines,
    "Install them with one of:",
    `  sudo apt-get install -y ${apt.join(" ")}      # Debian, Ubuntu`,
    `  ${brewCommands.join(" && ")}      # macOS`,
  ].join("\n");
}
