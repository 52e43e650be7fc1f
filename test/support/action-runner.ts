// Runs the GitHub Action's committed entry (dist-action/index.js) the way GitHub's runner does: a
// child process of the project's Node with the event's payload in a file at GITHUB_EVENT_PATH,
// the token, the API and server URLs, the repository, fresh GITHUB_OUTPUT and GITHUB_STEP_SUMMARY
// files, a workspace directory, and every input as INPUT_<NAME> (upper-cased, hyphens kept).
// Spawned asynchronously, so fake servers in the test's own process keep answering.

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { compileCacheEnv } from "./compile-cache.ts";
import { PROJECT_ROOT } from "./loupe-process.ts";

export const ACTION_ENTRY = path.join(PROJECT_ROOT, "dist-action", "index.js");

export interface ActionRunInput {
  readonly eventName: string;
  readonly payload: unknown;
  readonly token: string;
  /** http://127.0.0.1:PORT of the fake GitHub (its API is under /api/v3). */
  readonly githubUrl: string;
  readonly repository: string;
  readonly inputs: Readonly<Record<string, string>>;
  /** Prepares GITHUB_WORKSPACE (e.g. a checkout); empty by default. */
  readonly workspace?: (dir: string) => void;
  /** More of the process's environment (e.g. NODE_OPTIONS for a preloaded probe). */
  readonly env?: Readonly<Record<string, string>>;
  /** Kills the process (SIGKILL) if it is still running this long after it started. */
  readonly killAfterMs?: number;
}

export interface ActionRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** GITHUB_OUTPUT, read back from its `name<<DELIMITER` form. */
  readonly outputs: Readonly<Record<string, string>>;
  readonly summary: string;
  /** The text of the files the outputs `result-file` and `sarif-file` name, read before cleanup. */
  readonly files: Readonly<Record<string, string>>;
  /** Whether `killAfterMs` passed and the process was killed. */
  readonly killed: boolean;
}

export async function runActionEntry(input: ActionRunInput): Promise<ActionRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-action-run-"));
  try {
    const file = (name: string, text = "") => {
      const full = path.join(dir, name);
      fs.writeFileSync(full, text);
      return full;
    };
    const workspace = path.join(dir, "workspace");
    fs.mkdirSync(workspace);
    input.workspace?.(workspace);
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "",
      HOME: dir,
      RUNNER_TEMP: dir,
      GITHUB_ACTIONS: "true",
      GITHUB_EVENT_NAME: input.eventName,
      GITHUB_EVENT_PATH: file("event.json", JSON.stringify(input.payload)),
      GITHUB_TOKEN: input.token,
      GITHUB_API_URL: `${input.githubUrl}/api/v3`,
      GITHUB_SERVER_URL: input.githubUrl,
      GITHUB_REPOSITORY: input.repository,
      GITHUB_RUN_ID: "4711",
      GITHUB_OUTPUT: file("output"),
      GITHUB_STEP_SUMMARY: file("summary.md"),
      GITHUB_WORKSPACE: workspace,
      ...compileCacheEnv(),
    };
    for (const [name, value] of Object.entries(input.inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
    Object.assign(env, input.env);
    const child = spawn(process.execPath, [ACTION_ENTRY], {
      cwd: workspace,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    let killed = false;
    const killer =
      input.killAfterMs === undefined
        ? undefined
        : setTimeout(() => {
            killed = true;
            child.kill("SIGKILL");
          }, input.killAfterMs);
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    clearTimeout(killer);
    const outputs = parseOutputs(fs.readFileSync(env.GITHUB_OUTPUT!, "utf8"));
    const files: Record<string, string> = {};
    for (const name of ["result-file", "sarif-file"]) {
      const named = outputs[name];
      if (named !== undefined && named !== "") files[name] = fs.readFileSync(named, "utf8");
    }
    return {
      code,
      stdout,
      stderr,
      outputs,
      summary: fs.readFileSync(env.GITHUB_STEP_SUMMARY!, "utf8"),
      files,
      killed,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The runner's reading of GITHUB_OUTPUT: `name=value` lines and `name<<DELIMITER` blocks. */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      if (end === -1) throw new Error(`GITHUB_OUTPUT: ${heredoc[1]} is not closed`);
      outputs[heredoc[1]!] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else if (line.includes("=")) {
      outputs[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
    }
  }
  return outputs;
}
