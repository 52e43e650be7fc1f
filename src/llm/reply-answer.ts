// A thread reply as the tool loop's final answer: the reply schema, checked as one small object
// (object-answer.ts), with the reply's final-answer instruction.

import type { FinalAnswer } from "./final-answer.ts";
import { objectAnswer } from "./object-answer.ts";
import { FINDING_STATUSES, MAX_REPLY_BYTES, type ThreadReply, ThreadReplySchema } from "./reply-schema.ts";

export const REPLY_FINAL_INSTRUCTION =
  "The budget for this reply is used up. Do not call any tool. Return the reply JSON now, based on the evidence you already have.";

export function replyAnswer(): FinalAnswer<ThreadReply> {
  return objectAnswer<ThreadReply>({
    schema: ThreadReplySchema,
    noun: "reply",
    fields: "reply and finding_status",
    choices: FINDING_STATUSES,
    maxBytes: MAX_REPLY_BYTES,
    finalInstruction: REPLY_FINAL_INSTRUCTION,
    mapText: (answer, edit) => ({ reply: edit(answer.reply), finding_status: answer.finding_status }),
  });
}
