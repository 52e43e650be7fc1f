// The first check of every final answer: one JSON object and nothing else. One ```json fence
// around the whole answer is tolerated; prose around it is not. The parser's own message quotes
// the model's text, so it is never passed on.

import { capFailures } from "./review-check-messages.ts";

const FENCE = /^```(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n[ \t]*```$/;

export type AnswerObject =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly failures: readonly string[] };

export function readAnswerObject(
  content: unknown,
  expected: { readonly what: string; readonly fields: string },
): AnswerObject {
  const fail = (failure: string): AnswerObject => ({ ok: false, failures: capFailures([failure]) });
  if (typeof content !== "string" || content.trim() === "") {
    return fail(`(answer): has no text; ${expected.what} must be one JSON object`);
  }
  const trimmed = content.trim();
  const jsonText = FENCE.exec(trimmed)?.[1] ?? trimmed;
  let parsed: unknown;
  try {
    parsed = JSON.parse(jsonText);
  } catch {
    return fail(
      `(answer): is not valid JSON; ${expected.what} must be one JSON object and nothing else, without Markdown or prose`,
    );
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return fail(`(root): must be a JSON object with ${expected.fields}`);
  }
  return { ok: true, value: parsed as Record<string, unknown> };
}
