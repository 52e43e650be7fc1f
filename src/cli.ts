// The `loupe` command: a thin dispatcher. Each subcommand lives in src/cli/ and returns its
// exit code; 2 always means bad usage or configuration, with a one-line message on stderr.

import { LoupeError } from "./errors.ts";
import { redactSecrets } from "./redact.ts";

const USAGE = [
  "usage: loupe tool <name> --repo <dir-or-clone-url> --base <rev> --head <rev> [--args '<json>']",
  "       loupe review --repo <dir-or-clone-url> --base <rev> --head <rev> [--format json|markdown] [--no-trace]",
].join("\n");

type Command = (argv: readonly string[], io: CliIo) => Promise<number>;

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
}

async function loadCommand(name: string | undefined): Promise<Command | undefined> {
  switch (name) {
    case "tool":
      return (await import("./cli/tool-command.ts")).runToolCommand;
    case "review":
      return (await import("./cli/review-command.ts")).runReviewCommand;
    default:
      return undefined;
  }
}

export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "--help" || name === "-h") {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  const command = await loadCommand(name);
  if (command === undefined) {
    io.stderr(`loupe: unknown command ${JSON.stringify(name ?? "")}\n${USAGE}\n`);
    return 2;
  }
  try {
    return await command(rest, io);
  } catch (error) {
    const code =
      error instanceof LoupeError &&
      (error.code === "usage_invalid" || error.code === "configuration_invalid")
        ? 2
        : 1;
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`loupe: ${redactSecrets(message).split("\n")[0]}\n`);
    return code;
  }
}

const invokedDirectly =
  process.argv[1] !== undefined && /(?:^|[/\\])(?:cli\.ts|loupe(?:\.js)?)$/.test(process.argv[1]);
if (invokedDirectly) {
  const io: CliIo = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
  };
  process.exitCode = await main(process.argv.slice(2), io);
}
