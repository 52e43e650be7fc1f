// A final answer that is one small JSON object checked by a valibot schema (a reply in a review
// thread, a finding's verification): the checks in Loupe's own words (the model's values never
// appear in them), the final-answer instruction and the repair request.

import * as v from "valibot";
import { readAnswerObject } from "./answer-json.ts";
import type { FinalAnswer } from "./final-answer.ts";
import { capFailures, formatIssuePath } from "./review-check-messages.ts";

export interface ObjectAnswerSpec<T> {
  readonly schema: v.GenericSchema<unknown, T>;
  /** "reply": how the checks and the repair request name the answer. */
  readonly noun: string;
  /** "reply and finding_status": the fields a bare answer is told to have. */
  readonly fields: string;
  /** The one picklist field's choices, named when a value is not one of them. */
  readonly choices: readonly string[];
  readonly maxBytes: number;
  readonly finalInstruction: string;
  readonly mapText: FinalAnswer<T>["mapText"];
}

function describe(issue: v.BaseIssue<unknown>, spec: ObjectAnswerSpec<unknown>): string {
  const at = formatIssuePath(issue.path as { key: unknown }[] | undefined);
  switch (issue.type) {
    case "strict_object":
      if (issue.expected === "never")
        return `${at}: is not a field of the ${spec.noun} (no additional fields are allowed)`;
      return issue.received === "undefined"
        ? `${at}: is missing (a required field)`
        : `${at}: must be a JSON object`;
    case "string":
      return `${at}: must be a string`;
    case "picklist":
      return `${at}: must be one of ${spec.choices.join(", ")}`;
    case "min_length":
      return `${at}: must not be empty`;
    case "max_length":
    case "max_bytes":
      return `${at}: is longer than ${spec.maxBytes} bytes of UTF-8`;
    default:
      return `${at}: does not match the ${spec.noun} schema`;
  }
}

export function objectAnswer<T>(spec: ObjectAnswerSpec<T>): FinalAnswer<T> {
  return {
    finalInstruction: spec.finalInstruction,
    async validate(content) {
      const parsed = readAnswerObject(content, { what: `the ${spec.noun}`, fields: spec.fields });
      if (!parsed.ok) return parsed;
      const result = v.safeParse(spec.schema, parsed.value, { abortEarly: false });
      if (!result.success)
        return { ok: false, failures: capFailures(result.issues.map((i) => describe(i, spec))) };
      return { ok: true, value: result.output };
    },
    repairInstruction: (failures) =>
      [
        `Your ${spec.noun} failed Loupe's validation, so nothing from it can be published. These checks failed:`,
        ...failures.map((failure) => `- ${failure}`),
        `Return the corrected ${spec.noun} now: one JSON object exactly matching the schema of the system message, and nothing else. Do not call any tool.`,
      ].join("\n"),
    mapText: spec.mapText,
  };
}
