// A thread reply as the tool loop's final answer: the reply schema, checks in Loupe's own words
// (the model's values never appear in them), and the reply's final-answer and repair requests.

import * as v from "valibot";
import { readAnswerObject } from "./answer-json.ts";
import type { FinalAnswer } from "./final-answer.ts";
import { FINDING_STATUSES, MAX_REPLY_BYTES, type ThreadReply, ThreadReplySchema } from "./reply-schema.ts";
import { capFailures, formatIssuePath } from "./review-check-messages.ts";

export const REPLY_FINAL_INSTRUCTION =
  "The budget for this reply is used up. Do not call any tool. Return the reply JSON now, based on the evidence you already have.";

function describe(issue: v.BaseIssue<unknown>): string {
  const at = formatIssuePath(issue.path as { key: unknown }[] | undefined);
  switch (issue.type) {
    case "strict_object":
      if (issue.expected === "never")
        return `${at}: is not a field of the reply (no additional fields are allowed)`;
      return issue.received === "undefined"
        ? `${at}: is missing (a required field)`
        : `${at}: must be a JSON object`;
    case "string":
      return `${at}: must be a string`;
    case "picklist":
      return `${at}: must be one of ${FINDING_STATUSES.join(", ")}`;
    case "min_length":
      return `${at}: must not be empty`;
    case "max_length":
    case "max_bytes":
      return `${at}: is longer than ${MAX_REPLY_BYTES} bytes of UTF-8`;
    default:
      return `${at}: does not match the reply schema`;
  }
}

export function replyAnswer(): FinalAnswer<ThreadReply> {
  return {
    finalInstruction: REPLY_FINAL_INSTRUCTION,
    async validate(content) {
      const parsed = readAnswerObject(content, { what: "the reply", fields: "reply and finding_status" });
      if (!parsed.ok) return parsed;
      const result = v.safeParse(ThreadReplySchema, parsed.value, { abortEarly: false });
      if (!result.success) return { ok: false, failures: capFailures(result.issues.map(describe)) };
      return { ok: true, value: result.output };
    },
    repairInstruction: (failures) =>
      [
        "Your reply failed Loupe's validation, so nothing from it can be published. These checks failed:",
        ...failures.map((failure) => `- ${failure}`),
        "Return the corrected reply now: one JSON object exactly matching the schema of the system message, and nothing else. Do not call any tool.",
      ].join("\n"),
    mapText: (answer, edit) => ({ reply: edit(answer.reply), finding_status: answer.finding_status }),
  };
}
