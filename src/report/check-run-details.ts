// The check run's explanation beyond the termination reason: what to check after a provider
// failure, the repair round and why it happened, and the exact checks the final review failed.
// The failed checks quote keys and paths the model chose, so each is shown as a code span,
// redacted; nothing of the provider's body is ever part of them.

import { redactSecrets } from "../domain/redact.ts";
import { ENVIRONMENT_NAMES, type SettingNames } from "../domain/setting-names.ts";
import { resultDetails, sameList } from "../llm/result-details.ts";
import type { LoopResult } from "../llm/types.ts";
import { type Block, code, paragraph, strong, text } from "../review/markdown-tree.ts";
import { sentenceInlines } from "../review/model-inlines.ts";

export function renderResultDetails(result: LoopResult, names: SettingNames = ENVIRONMENT_NAMES): Block[] {
  const details = resultDetails(result, names);
  const out: Block[] = [];
  // Loupe's own sentence: the host comes from the operator's validated OPENAI_BASE_URL.
  if (details.providerHint !== null)
    out.push(
      paragraph(
        strong(text("What to check:")),
        text(" "),
        ...sentenceInlines(redactSecrets(details.providerHint)),
      ),
    );
  if (details.repair !== null) {
    out.push(
      paragraph(strong(text("Repair round:")), text(` ${details.repair}`)),
      ...list(details.repairFailures),
    );
  }
  if (details.failures.length > 0 && !sameList(details.failures, details.repairFailures)) {
    out.push(
      paragraph(
        strong(text("Checks the final review failed")),
        text(" (so none of its findings was published):"),
      ),
      ...list(details.failures),
    );
  }
  return out;
}

/** One paragraph per check, a bullet and the check as code (a bullet is text: no list to escape). */
export function list(failures: readonly string[]): Block[] {
  return failures.map((failure) => paragraph(text("• "), code(redactSecrets(failure))));
}
