// Validators for what Loupe writes for machines: a SARIF log against the official SARIF 2.1.0
// schema and what GitHub's code scanning documents that it accepts (src/review/sarif-validation.ts,
// as `loupe sarif validate` runs it); the agents' JSON against docs/review-result.schema.json (draft-07).

import fs from "node:fs";
import path from "node:path";
import AjvModule from "ajv";
import addFormatsModule from "ajv-formats";

// The SARIF check is the one `loupe sarif validate` runs.
export { sarifProblems } from "../../src/review/sarif-validation.ts";

// CommonJS packages: their classes are the default export's `default`.
const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const readJson = (file: string): object =>
  JSON.parse(fs.readFileSync(path.join(ROOT, file), "utf8")) as object;

const documentAjv = new Ajv({ allErrors: true, strict: true });
addFormats(documentAjv);
export const reviewResultSchema = readJson("docs/review-result.schema.json") as Record<string, unknown>;
const documentSchema = documentAjv.compile(reviewResultSchema);

export function reviewDocumentProblems(value: unknown): string[] {
  if (documentSchema(value)) return [];
  return (documentSchema.errors ?? []).map((e) => `${e.instancePath}: ${e.message}`);
}

/**
 * The reader docs/machine-output.md shows an agent: the last `loupe:review-json` comment of a
 * check run's text (a model's text quoted in the trace above it is never last), parsed.
 */
export function readReviewJson(text: string): unknown {
  const marker = "<!-- loupe:review-json ";
  const start = text.lastIndexOf(marker);
  if (start < 0) return null;
  return JSON.parse(text.slice(start + marker.length, text.indexOf(" -->", start)));
}
