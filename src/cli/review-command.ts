// Placeholder until the review subcommand lands; it answers as bad usage rather than pretending.
import type { CliIo } from "../cli.ts";

export async function runReviewCommand(_argv: readonly string[], io: CliIo): Promise<number> {
  io.stderr("loupe: 'review' is not available yet\n");
  return 2;
}
