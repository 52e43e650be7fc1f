// A refutation is evidence only if what it quotes is really in the head commit where the finding
// points (domain/code-quote.ts). Read with the read tool's own rules, so a path it refuses proves
// nothing.

import { quoteNear } from "../domain/code-quote.ts";
import type { Finding } from "../domain/finding.ts";
import { readRepositoryTextFile } from "../tools/repository-file.ts";
import type { RepositoryView } from "../workspace/types.ts";

export async function quoteInHead(view: RepositoryView, finding: Finding, quote: string): Promise<boolean> {
  const file = await readRepositoryTextFile(view, finding.path);
  return file.ok && quoteNear(file.lines, finding, quote);
}
