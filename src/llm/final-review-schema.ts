// The one schema of the final review: valibot validates the model's answer with it, and the JSON
// Schema shown to the model in the system message is generated from it, so they cannot drift.

import { SEVERITIES } from "../domain/finding.ts";
import { toJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";

export const MAX_FINDINGS = 100;
export const MAX_NOTES = 100;
export const MAX_TEXT_BYTES = 8 * 1024;

// maxLength is what the model sees in the JSON Schema; maxBytes is the real (UTF-8) bound.
const text = () => v.pipe(v.string(), v.maxLength(MAX_TEXT_BYTES), v.maxBytes(MAX_TEXT_BYTES));
const line = () => v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1)));

export const FindingSchema = v.strictObject({
  severity: v.picklist(SEVERITIES),
  title: v.pipe(text(), v.minLength(1)),
  explanation: text(),
  path: v.pipe(v.string(), v.minLength(1), v.maxLength(4096)),
  line: line(),
  end_line: v.optional(line()),
  evidence: text(),
  recommendation: text(),
  suggestion: v.optional(v.nullable(text())),
});

export const FinalReviewSchema = v.strictObject({
  summary: text(),
  findings: v.pipe(v.array(FindingSchema), v.maxLength(MAX_FINDINGS)),
  notes: v.pipe(v.array(text()), v.maxLength(MAX_NOTES)),
});

/** The JSON Schema text embedded in the system message (maxBytes has no JSON Schema form). */
export function finalReviewJsonSchema(): string {
  const schema = toJsonSchema(FinalReviewSchema, { errorMode: "ignore" }) as Record<string, unknown>;
  delete schema.$schema;
  return JSON.stringify(schema);
}
