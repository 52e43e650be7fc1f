// Placeholder until the tool subcommand lands; it answers as bad usage rather than pretending.
import type { CliIo } from "../cli.ts";

export async function runToolCommand(_argv: readonly string[], io: CliIo): Promise<number> {
  io.stderr("loupe: 'tool' is not available yet\n");
  return 2;
}
