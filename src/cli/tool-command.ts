// `loupe tool <name> --repo <dir-or-clone-url> --base <rev> --head <rev> [--args '<json>']`:
// runs one repository tool exactly as the loop would and prints the tool message content the
// model would receive (one JSON line, exit 0, even for a tool-level `ok:false`). Bad usage —
// unknown tool, missing flag, `--args` not JSON or failing the strict schema — exits 2 with one
// line on stderr, before any repository is opened.

import { isLoupeError, LoupeError } from "../domain/errors.ts";
import { openRepository } from "../forges/local/open-repository.ts";
import { createToolRegistry, isToolName, parseToolArguments } from "../tools/registry.ts";
import { TOOL_NAMES, type ToolName } from "../tools/types.ts";
import type { Workspace } from "../workspace/types.ts";
import { VALUE_OPTIONS } from "./help.ts";
import type { CliIo } from "./io.ts";

export type RepositoryOpener = (options: {
  readonly repo: string;
  readonly base: string;
  readonly head: string;
  readonly env: NodeJS.ProcessEnv;
  readonly signal: AbortSignal;
}) => Promise<Workspace>;

export interface ToolCommandDeps {
  /** Defaults to openRepository (a local directory or an http(s) clone URL). */
  readonly openRepository?: RepositoryOpener;
}

interface ToolArgs {
  readonly name: ToolName;
  readonly repo: string;
  readonly base: string;
  readonly head: string;
  readonly args: unknown;
}

const FLAGS = VALUE_OPTIONS.tool;

function usage(message: string): LoupeError {
  return new LoupeError("usage_invalid", message);
}

function parseArgv(argv: readonly string[]): ToolArgs {
  const [name, ...rest] = argv;
  if (name === undefined || name.startsWith("--")) {
    throw usage(`loupe tool needs a tool name (${TOOL_NAMES.join(", ")})`);
  }
  if (!isToolName(name))
    throw usage(`unknown tool ${JSON.stringify(name)} (expected ${TOOL_NAMES.join(", ")})`);
  const values: Partial<Record<(typeof FLAGS)[number], string>> = {};
  for (let index = 0; index < rest.length; index += 2) {
    const flag = rest[index]!;
    if (!(FLAGS as readonly string[]).includes(flag)) {
      throw usage(`unknown option ${JSON.stringify(flag)} for loupe tool`);
    }
    const value = rest[index + 1];
    if (value === undefined) throw usage(`${flag} needs a value`);
    values[flag as (typeof FLAGS)[number]] = value;
  }
  for (const flag of ["--repo", "--base", "--head"] as const) {
    if (values[flag] === undefined || values[flag] === "") throw usage(`loupe tool needs ${flag}`);
  }
  let args: unknown;
  try {
    args = JSON.parse(values["--args"] ?? "{}");
  } catch {
    throw usage("--args is not valid JSON");
  }
  const parsed = parseToolArguments(name, args);
  if (!parsed.ok) throw usage(`--args rejected for ${name}: ${parsed.message}`);
  return {
    name,
    repo: values["--repo"]!,
    base: values["--base"]!,
    head: values["--head"]!,
    args: parsed.args,
  };
}

export async function runToolCommand(
  argv: readonly string[],
  io: CliIo,
  deps: ToolCommandDeps = {},
): Promise<number> {
  let call: ToolArgs;
  try {
    call = parseArgv(argv);
  } catch (error) {
    io.stderr(`loupe: ${(error as Error).message.split("\n")[0]}\n`);
    return 2;
  }
  const open = deps.openRepository ?? openRepository;
  const signal = new AbortController().signal;
  let workspace: Workspace;
  try {
    workspace = await open({ repo: call.repo, base: call.base, head: call.head, env: io.env, signal });
  } catch (error) {
    // A directory that is not a repository or a revision it lacks is the caller's input (exit 2).
    if (isLoupeError(error, "git_repository_invalid") || isLoupeError(error, "git_commit_unreachable")) {
      throw usage(error.message);
    }
    throw error;
  }
  try {
    const execution = await createToolRegistry(workspace).execute(call.name, call.args, signal);
    io.stdout(`${execution.content}\n`);
    return 0;
  } finally {
    await workspace.dispose();
  }
}
