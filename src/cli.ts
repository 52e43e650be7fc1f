// The `loupe` command: a thin dispatcher. Each subcommand lives in src/cli/ and returns its exit
// code; 2 always means bad usage or configuration, with a one-line message on stderr. A command's
// module is imported only when it runs, so `loupe tool` never loads the provider client.

import { readFileSync } from "node:fs";
import module from "node:module";
import { asksForHelp, COMMAND_HELP, type CommandName, isCommandName, MAIN_HELP } from "./cli/help.ts";
import type { CliIo } from "./cli/io.ts";
import { isLoupeError, LoupeError } from "./domain/errors.ts";
import { redactSecrets } from "./domain/redact.ts";

type Command = (argv: readonly string[], io: CliIo) => Promise<number>;

async function loadCommand(name: CommandName): Promise<Command> {
  switch (name) {
    case "tool":
      return (await import("./cli/tool-command.ts")).runToolCommand;
    case "review":
      return (await import("./cli/review-command.ts")).runReviewCommand;
    case "config":
      return (await import("./cli/config-command.ts")).runConfigCommand;
    case "eval":
      return (await import("./eval/eval-command.ts")).runEvalCommand;
    case "gitlab-ci":
      return (await import("./cli/gitlab-ci-command.ts")).runGitLabCiCommand;
    case "sarif":
      return (await import("./cli/sarif-command.ts")).runSarifCommand;
  }
}

export function loupeVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}

export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "--help" || name === "-h" || (name === "help" && rest.length === 0)) {
    io.stdout(MAIN_HELP);
    return 0;
  }
  if (name === "--version" || name === "-V" || name === "version") {
    io.stdout(`${loupeVersion()}\n`);
    return 0;
  }
  if (name === "help" && isCommandName(rest[0])) {
    io.stdout(COMMAND_HELP[rest[0]]);
    return 0;
  }
  if (!isCommandName(name)) {
    const what = name === undefined ? "no command given" : `unknown command ${JSON.stringify(name)}`;
    io.stderr(`loupe: ${what} (try loupe --help)\n`);
    return 2;
  }
  if (asksForHelp(rest, name)) {
    io.stdout(COMMAND_HELP[name]);
    return 0;
  }
  try {
    return await (await loadCommand(name))(rest, io);
  } catch (error) {
    const code =
      error instanceof LoupeError &&
      (error.code === "usage_invalid" || error.code === "configuration_invalid")
        ? 2
        : 1;
    const message = error instanceof Error ? error.message : String(error);
    const lines = redactSecrets(message).split("\n");
    // A configuration error lists every problem of the environment, one line each.
    const shown = isLoupeError(error, "configuration_invalid") ? lines : lines.slice(0, 1);
    // A message that already names its command (`loupe review needs --base`) is not prefixed again.
    for (const line of shown) io.stderr(line.startsWith("loupe ") ? `${line}\n` : `loupe: ${line}\n`);
    return code;
  }
}

/**
 * A stream whose reader went away (`loupe … | head`) takes no more writes, and says so with EPIPE:
 * the command goes on to its end as it would (files it writes are still written), its output
 * dropped, instead of dying on an unhandled 'error' event with a stack trace.
 */
function writerUntilClosed(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    closed = true;
  });
  return (text) => {
    if (!closed) stream.write(text);
  };
}

/** Runs `loupe` as this process: arguments, standard streams and exit code. */
export async function runCli(): Promise<void> {
  const io: CliIo = {
    stdout: writerUntilClosed(process.stdout),
    stderr: writerUntilClosed(process.stderr),
    env: process.env,
    stderrIsTerminal: process.stderr.isTTY === true,
  };
  process.exitCode = await main(process.argv.slice(2), io);
}

// `node src/cli.ts ...` runs it too (bin/loupe.js calls runCli itself, after the same cache call):
// every module the command imports from here on is compiled once and then read from the cache.
if (process.argv[1] !== undefined && /(?:^|[/\\])cli\.ts$/.test(process.argv[1])) {
  module.enableCompileCache?.();
  await runCli();
}
