// The check run's output while a review runs: the round it has reached, its tool calls and tokens,
// and — while its next model request waits for its share of the provider — why, and for about how
// long when that is known.

import type { ProviderWait } from "../../../llm/provider-gate.ts";
import type { RoundProgress } from "../../../llm/types.ts";
import type { CheckRunOutput } from "../../../report/review-report.ts";
import { serializeBlocks } from "../../../review/markdown-serialize.ts";
import { type Block, code, paragraph, text } from "../../../review/markdown-tree.ts";

const CAUSES = {
  in_flight:
    "as many model requests as the operator allows (PROVIDER_MAX_IN_FLIGHT) are in flight across Loupe's replicas",
  tokens_per_minute:
    "the model requests of the last minute used the tokens the operator allows (PROVIDER_TOKENS_PER_MINUTE)",
  back_off: "the provider asked Loupe to slow down (HTTP 429 with Retry-After), so every replica waits",
} as const;

export function describeWait(wait: ProviderWait): string {
  const time = wait.seconds === null ? "" : ` (about ${wait.seconds} s)`;
  return `Waiting for the model provider${time}: ${CAUSES[wait.cause]}. The review goes on within its own time budget.`;
}

/** The progress's paragraph about waiting, when its next request waits. */
export function waitingBlocks(progress: RoundProgress): Block[] {
  return progress.waiting === undefined ? [] : [paragraph(text(describeWait(progress.waiting)))];
}

export function renderProgressOutput(progress: RoundProgress, headSha: string): CheckRunOutput {
  const pass = progress.pass === undefined ? "" : `pass ${progress.pass.index} of ${progress.pass.count}, `;
  return {
    title: `Loupe: reviewing (${pass}round ${progress.round} of ${progress.maxRounds})`,
    summary: serializeBlocks([
      paragraph(
        text(
          `${pass === "" ? "" : `Pass ${progress.pass!.index} of ${progress.pass!.count}: `}` +
            `Round ${progress.round} of at most ${progress.maxRounds} finished: ${progress.toolCalls} tool calls, ` +
            `${progress.totalTokens} tokens so far${pass === "" ? "" : " in this pass"}.`,
        ),
      ),
      ...waitingBlocks(progress),
      paragraph(text("Head "), code(headSha)),
    ]),
  };
}
