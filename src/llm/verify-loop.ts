// The verification loop: the tool loop asked for a verdict on one candidate finding, with the
// slice of the review's budgets the pipeline gives it.

import type { FindingVerdict } from "../domain/verification.ts";
import { VERDICTS } from "../domain/verification.ts";
import type { FinalAnswer } from "./final-answer.ts";
import type { ToolLoopOptions } from "./loop-options.ts";
import { objectAnswer } from "./object-answer.ts";
import { runToolLoop } from "./tool-loop.ts";
import type { ToolLoopResult } from "./types.ts";
import { buildVerifyMessages, type VerifyPromptInput } from "./verify-prompt.ts";
import { FindingVerdictSchema, MAX_VERDICT_BYTES } from "./verify-schema.ts";

export const VERIFY_FINAL_INSTRUCTION =
  "The budget for this verification is used up. Do not call any tool. Return the verdict JSON now, based on the evidence you already have.";

export function verdictAnswer(): FinalAnswer<FindingVerdict> {
  return objectAnswer<FindingVerdict>({
    schema: FindingVerdictSchema,
    noun: "verdict",
    fields: "verdict, reason and quote",
    choices: VERDICTS,
    maxBytes: MAX_VERDICT_BYTES,
    finalInstruction: VERIFY_FINAL_INSTRUCTION,
    // The quote is checked against the head commit as it came: only the reason is model prose.
    mapText: (answer, edit) => ({ ...answer, reason: edit(answer.reason) }),
  });
}

export interface VerifyLoopOptions extends Omit<ToolLoopOptions<FindingVerdict>, "messages" | "answer"> {
  prompt: VerifyPromptInput;
}

export function runVerifyLoop(options: VerifyLoopOptions): Promise<ToolLoopResult<FindingVerdict>> {
  const { prompt, ...loop } = options;
  return runToolLoop({ ...loop, messages: buildVerifyMessages(prompt), answer: verdictAnswer() });
}
