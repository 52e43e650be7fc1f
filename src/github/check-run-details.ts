// The check run's explanation beyond the termination reason: what to check after a provider
// failure, the repair round and why it happened, and the exact checks the final review failed.
// The failed checks quote keys and paths the model chose, so each is shown as an escaped code
// span, redacted; nothing of the provider's body is ever part of them.

import { resultDetails, sameList } from "../llm/result-details.ts";
import type { LoopResult } from "../llm/types.ts";
import { redactSecrets } from "../redact.ts";
import { inlineCode } from "../review/markdown-text.ts";

export function renderResultDetails(result: LoopResult): string[] {
  const details = resultDetails(result);
  const out: string[] = [];
  // Loupe's own sentence: the host comes from the operator's validated OPENAI_BASE_URL.
  if (details.providerHint !== null) out.push(`**What to check:** ${redactSecrets(details.providerHint)}`);
  if (details.repair !== null) {
    out.push(`**Repair round:** ${details.repair}\n\n${list(details.repairFailures)}`);
  }
  if (details.failures.length > 0 && !sameList(details.failures, details.repairFailures)) {
    out.push(
      `**Checks the final review failed** (so none of its findings was published):\n\n${list(details.failures)}`,
    );
  }
  return out;
}

function list(failures: readonly string[]): string {
  return failures.map((failure) => `- ${inlineCode(redactSecrets(failure))}`).join("\n");
}
