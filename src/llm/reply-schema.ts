// The one schema of a reply in a review thread: valibot validates the model's answer with it, and
// the JSON Schema in the reply's system message is generated from it, so they cannot drift.

import { toJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";

export const MAX_REPLY_BYTES = 4 * 1024;
export const FINDING_STATUSES = ["still_valid", "fixed", "withdrawn", "dismissed"] as const;
export type FindingStatus = (typeof FINDING_STATUSES)[number];

export interface ThreadReply {
  readonly reply: string;
  readonly finding_status: FindingStatus;
}

export const ThreadReplySchema = v.strictObject({
  reply: v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_REPLY_BYTES), v.maxBytes(MAX_REPLY_BYTES)),
  finding_status: v.picklist(FINDING_STATUSES),
});

export function threadReplyJsonSchema(): string {
  const schema = toJsonSchema(ThreadReplySchema, { errorMode: "ignore" }) as Record<string, unknown>;
  delete schema.$schema;
  return JSON.stringify(schema);
}
