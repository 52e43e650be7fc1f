// What the head commit says of a finding under verification, read with the read tool's own rules
// (so a path it refuses proves nothing): whether a verifier's refutation quotes code there that
// shows the claim false, and whether the finding's own evidence quotes the code it points at
// (domain/code-quote.ts).

import { evidenceQuotesCode, quoteRefutes } from "../domain/code-quote.ts";
import type { Finding } from "../domain/finding.ts";
import { readRepositoryTextFile } from "../tools/repository-file.ts";
import type { RepositoryView } from "../workspace/types.ts";

export interface HeadQuotes {
  /** The refutation's quote is in the head commit near the finding and is more than the claim. */
  readonly refutes: boolean;
  /** The finding's evidence quotes head code near its lines (a signal, never a gate). */
  readonly evidenceQuoted: boolean;
}

export async function quotesInHead(
  view: RepositoryView,
  finding: Finding,
  refutation: string | null,
): Promise<HeadQuotes> {
  const file = await readRepositoryTextFile(view, finding.path);
  if (!file.ok) return { refutes: false, evidenceQuoted: false };
  return {
    refutes: refutation !== null && quoteRefutes(file.lines, finding, refutation),
    evidenceQuoted: evidenceQuotesCode(file.lines, finding, finding.evidence),
  };
}
