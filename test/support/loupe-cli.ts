// The `loupe` command as a test runs it. By default in this process, through the entry the
// process runs too (`main` of src/cli.ts: the same arguments, environment and exit code, its
// streams captured): a child process costs a Node start and the compile of Loupe's modules, about
// half a second of CPU a call, and the CLI's files made dozens of calls. Where the process itself
// is under test (exit codes as the shell sees them, a closed pipe, signals, the bin script), ask
// for `asProcess: true`: the real `node src/cli.ts` with the same environment and nothing else.

import { execFile } from "node:child_process";
import path from "node:path";
import { main } from "../../src/cli.ts";
import { PROJECT_ROOT } from "./loupe-process.ts";

export interface LoupeRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface LoupeRunOptions {
  /** The real child process instead of the in-process entry. */
  asProcess?: boolean;
}

/** `loupe ARGS` with only PATH and `env` in its environment, as a user's shell would give it. */
export async function runLoupe(
  argv: readonly string[],
  env: Record<string, string> = {},
  options: LoupeRunOptions = {},
): Promise<LoupeRun> {
  const environment = { PATH: process.env.PATH ?? "", ...env };
  if (options.asProcess === true) return childRun(argv, environment);
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: environment,
  });
  return { code, stdout, stderr };
}

function childRun(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<LoupeRun> {
  const node = path.join(PROJECT_ROOT, "node_modules", ".bin", "node");
  return new Promise((resolve) => {
    execFile(
      node,
      ["src/cli.ts", ...argv],
      { cwd: PROJECT_ROOT, env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
    );
  });
}
