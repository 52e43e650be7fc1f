// The reply loop: the tool loop asked for a reply in one of Loupe's review threads, with the
// reply's own (smaller) budgets.

import type { ToolLoopOptions } from "./loop-options.ts";
import { replyAnswer } from "./reply-answer.ts";
import { buildReplyMessages, type ReplyPromptInput } from "./reply-prompt.ts";
import type { ThreadReply } from "./reply-schema.ts";
import { runToolLoop } from "./tool-loop.ts";
import type { ToolLoopResult } from "./types.ts";

export interface ReplyLoopOptions extends Omit<ToolLoopOptions<ThreadReply>, "messages" | "answer"> {
  prompt: ReplyPromptInput;
}

export function runReplyLoop(options: ReplyLoopOptions): Promise<ToolLoopResult<ThreadReply>> {
  const { prompt, ...loop } = options;
  return runToolLoop({ ...loop, messages: buildReplyMessages(prompt), answer: replyAnswer() });
}
