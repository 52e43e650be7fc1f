// Whether a SARIF file is one GitHub's code scanning takes: valid against the official SARIF 2.1.0
// schema (sarif-schema-2.1.0.json beside this file, OASIS's draft-04 schema, copied unchanged from
// the oasis-tcs/sarif-spec repository), then within what GitHub documents for one upload (at most
// 20 runs, 25,000 results and 25,000 rules per run, 1,000 locations per result, 20 tags per rule,
// 10 MB a file; docs/machine-output.md) and what it needs to place an alert (a message, a known
// rule, a fingerprint, a relative path and a line). One validator serves `loupe sarif validate`
// and the tests of the SARIF Loupe writes.

import AjvDraft04Module from "ajv-draft-04";
import addFormatsModule from "ajv-formats";
import schema from "./sarif-schema-2.1.0.json" with { type: "json" };

// CommonJS packages: their classes are the default export's `default`.
const AjvDraft04 = AjvDraft04Module.default;
const addFormats = addFormatsModule.default;

const GITHUB = {
  runs: 20,
  results: 25_000,
  rules: 25_000,
  locations: 1_000,
  tags: 20,
  bytes: 10 * 1024 * 1024,
};

let compiled: ReturnType<InstanceType<typeof AjvDraft04>["compile"]> | null = null;

/** The schema compiled once, when first needed: `loupe` loads it only for this command. */
function sarifSchema() {
  if (compiled === null) {
    const ajv = new AjvDraft04({ allErrors: true, strict: false });
    addFormats(ajv);
    compiled = ajv.compile(schema);
  }
  return compiled;
}

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

/** Every problem with a SARIF file's text, one sentence each: the schema's, then GitHub's; [] when none. */
export function sarifProblems(text: string): string[] {
  const problems: string[] = [];
  if (Buffer.byteLength(text, "utf8") > GITHUB.bytes) problems.push("file over 10 MB");
  let log: SarifShape;
  try {
    log = JSON.parse(text) as SarifShape;
  } catch (error) {
    return [...problems, `not JSON: ${error instanceof Error ? error.message : String(error)}`];
  }
  const validate = sarifSchema();
  if (!validate(log)) {
    for (const e of validate.errors ?? []) problems.push(`schema ${e.instancePath}: ${e.message}`);
  }
  if (typeof log !== "object" || log === null) return problems;
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
