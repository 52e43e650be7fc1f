// The review loop: the tool loop asked for a final review, whose findings must point at files and
// lines of the head commit.

import type { ToolCallMode } from "../config/provider-config.ts";
import type { RepositoryView } from "../workspace/types.ts";
import { type FindingFileCheck, headFileCheck } from "./final-review.ts";
import type { ToolLoopOptions } from "./loop-options.ts";
import { buildInitialMessages, type ReviewPromptInput } from "./prompt.ts";
import { reviewAnswer } from "./review-answer.ts";
import { runToolLoop } from "./tool-loop.ts";
import type { LoopResult } from "./types.ts";
import type { FinalReview } from "../domain/finding.ts";

export type { ReviewPromptInput } from "./prompt.ts";

export interface ReviewLoopOptions extends Omit<ToolLoopOptions<FinalReview>, "messages" | "answer"> {
  view: RepositoryView;
  prompt: ReviewPromptInput;
  /** Finding path check; defaults to the read tool's own rules against the head commit. */
  checkFindingFile?: FindingFileCheck;
  toolCalls?: ToolCallMode;
}

export async function runReviewLoop(options: ReviewLoopOptions): Promise<LoopResult> {
  const { view, prompt, checkFindingFile, ...loop } = options;
  const { termination_reason, answer, ...record } = await runToolLoop({
    ...loop,
    messages: buildInitialMessages(prompt),
    answer: reviewAnswer(checkFindingFile ?? headFileCheck(view)),
  });
  // Keys in the order they always had: termination_reason, then review.
  return { termination_reason, review: answer, ...record };
}
