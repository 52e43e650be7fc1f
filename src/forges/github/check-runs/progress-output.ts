// What a check run shows while the review runs: the round (and pass) just finished, the figures so
// far, the head. A GitHub check run alone shows progress; a GitLab commit status has no text.

import type { RoundProgress } from "../../../llm/types.ts";
import type { CheckRunOutput } from "../../../report/review-report.ts";
import { serializeBlocks } from "../../../review/markdown-serialize.ts";
import { code, paragraph, text } from "../../../review/markdown-tree.ts";

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
      paragraph(text("Head "), code(headSha)),
    ]),
  };
}
