// The repair request: when a final answer fails validation, the model gets its own answer back
// (replayed exactly as received) and one user message listing the checks that failed, in
// Loupe's words, asking for the corrected answer with no tool call. One per loop, and only
// when a round, its tokens and the time for it are still left. The review's words are here; a
// reply's are in reply-answer.ts.

import type { ChatMessage } from "./provider.ts";

export function repairInstruction(failures: readonly string[]): string {
  return [
    "Your final review failed Loupe's validation, so nothing from it can be published. These checks failed:",
    ...failures.map((failure) => `- ${failure}`),
    "Return the corrected final review now: one JSON object exactly matching the schema of the system message, and nothing else. Do not call any tool. Use only paths of existing files in the head commit and lines within them; set line to null for a finding about a whole file, or leave out a finding you cannot place.",
  ].join("\n");
}

/** The history of the repair round: the conversation, the failed answer as received, the request. */
export function repairHistory(
  history: readonly ChatMessage[],
  failedAnswer: Record<string, unknown>,
  instruction: string,
): ChatMessage[] {
  return [...history, structuredClone(failedAnswer) as ChatMessage, { role: "user", content: instruction }];
}
