// Validators for what Loupe writes for machines: a SARIF log against the official SARIF 2.1.0
// schema (test/fixtures/sarif, JSON Schema draft-04) and against what GitHub's code scanning
// documents that it accepts; the agents' JSON against docs/review-result.schema.json (draft-07).

import fs from "node:fs";
import path from "node:path";
import AjvModule from "ajv";
import AjvDraft04Module from "ajv-draft-04";
import addFormatsModule from "ajv-formats";

// CommonJS packages: their classes are the default export's `default`.
const Ajv = AjvModule.default;
const AjvDraft04 = AjvDraft04Module.default;
const addFormats = addFormatsModule.default;

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const readJson = (file: string): object =>
  JSON.parse(fs.readFileSync(path.join(ROOT, file), "utf8")) as object;

const sarifAjv = new AjvDraft04({ allErrors: true, strict: false });
addFormats(sarifAjv);
const sarifSchema = sarifAjv.compile(readJson("test/fixtures/sarif/sarif-schema-2.1.0.json"));

const documentAjv = new Ajv({ allErrors: true, strict: true });
addFormats(documentAjv);
export const reviewResultSchema = readJson("docs/review-result.schema.json") as Record<string, unknown>;
const documentSchema = documentAjv.compile(reviewResultSchema);

// GitHub's documented limits on one SARIF upload (docs/machine-output.md).
const GITHUB = {
  runs: 20,
  results: 25_000,
  rules: 25_000,
  locations: 1_000,
  tags: 20,
  bytes: 10 * 1024 * 1024,
};

interface SarifShape {
  version?: string;
  runs?: {
    tool?: { driver?: { name?: string; rules?: { id?: string; properties?: { tags?: unknown[] } }[] } };
    results?: {
      ruleId?: string;
      message?: { text?: string };
      partialFingerprints?: Record<string, string>;
      locations?: {
        physicalLocation?: { artifactLocation?: { uri?: string }; region?: { startLine?: number } };
      }[];
    }[];
  }[];
}

/** Every problem with a SARIF file's text: the official schema's, then GitHub's; [] when none. */
export function sarifProblems(text: string): string[] {
  const problems: string[] = [];
  if (Buffer.byteLength(text, "utf8") > GITHUB.bytes) problems.push("file over 10 MB");
  const log = JSON.parse(text) as SarifShape;
  if (!sarifSchema(log)) {
    for (const e of sarifSchema.errors ?? []) problems.push(`schema ${e.instancePath}: ${e.message}`);
  }
  if (log.version !== "2.1.0") problems.push("version is not 2.1.0");
  const runs = log.runs ?? [];
  if (runs.length > GITHUB.runs) problems.push("too many runs");
  for (const run of runs) {
    const rules = run.tool?.driver?.rules ?? [];
    if (!run.tool?.driver?.name) problems.push("tool.driver.name missing");
    if (rules.length > GITHUB.rules) problems.push("too many rules");
    if (rules.some((rule) => (rule.properties?.tags?.length ?? 0) > GITHUB.tags))
      problems.push("too many tags");
    const ids = new Set(rules.map((rule) => rule.id));
    const results = run.results ?? [];
    if (results.length > GITHUB.results) problems.push("too many results");
    for (const [index, result] of results.entries()) {
      const where = `results[${index}]`;
      if (!result.message?.text) problems.push(`${where}.message.text missing`);
      if (!ids.has(result.ruleId)) problems.push(`${where}.ruleId names no rule`);
      if (Object.keys(result.partialFingerprints ?? {}).length === 0)
        problems.push(`${where} has no fingerprint`);
      const locations = result.locations ?? [];
      if (locations.length === 0 || locations.length > GITHUB.locations) problems.push(`${where}.locations`);
      for (const location of locations) {
        const uri = location.physicalLocation?.artifactLocation?.uri ?? "";
        if (uri === "" || uri.startsWith("/") || /^[a-z]+:/i.test(uri)) problems.push(`${where} uri ${uri}`);
        if (!((location.physicalLocation?.region?.startLine ?? 0) >= 1)) problems.push(`${where} startLine`);
      }
    }
  }
  return problems;
}

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
