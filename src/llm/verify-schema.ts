// The one schema of a finding's verification: valibot validates the verifier's answer with it, and
// the JSON Schema in the verifier's system message is generated from it, so they cannot drift.

import { toJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { type FindingVerdict, VERDICTS } from "../domain/verification.ts";

export const MAX_VERDICT_BYTES = 2 * 1024;

const bounded = v.pipe(v.string(), v.maxLength(MAX_VERDICT_BYTES), v.maxBytes(MAX_VERDICT_BYTES));

export const FindingVerdictSchema = v.strictObject({
  verdict: v.picklist(VERDICTS),
  reason: v.pipe(bounded, v.minLength(1)),
  quote: v.nullable(bounded),
});

export function findingVerdictJsonSchema(): string {
  const schema = toJsonSchema(FindingVerdictSchema, { errorMode: "ignore" }) as Record<string, unknown>;
  delete schema.$schema;
  return JSON.stringify(schema);
}

export type { FindingVerdict };
