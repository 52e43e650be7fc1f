// One review as a SARIF 2.1.0 log, for GitHub's code scanning (uploaded by a workflow with
// github/codeql-action/upload-sarif) and any other SARIF reader. One run, Loupe as its tool, one
// rule per severity (Loupe's findings have no kinds); each finding a result at its level, with
// its text as inert plain text, its place on the head, and the ledger's id as its partial
// fingerprint, so code scanning keeps one alert for a finding across pushes and rewordings. The
// run's invocation says whether the review completed and why it ended: "ran, found nothing" is
// a successful invocation with no results; "did not finish" is an unsuccessful one.
//
// GitHub's documented upload limits are held here (docs/machine-output.md): at most 25,000
// results and 25,000 rules per run, 20 runs and 1,000 locations per result, 10 MB a file.

import type { Log, ReportingDescriptor, Result } from "sarif";
import { SEVERITIES, type Severity } from "../domain/finding.ts";
import type { ForgeWords } from "../domain/forge-words.ts";
import { type TerminationReason, terminationSentence } from "../domain/outcome.ts";
import { inertPlainText } from "./plain-text.ts";
import type { ReviewedFinding } from "./reviewed-findings.ts";

export const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
export const MAX_SARIF_RESULTS = 25_000;
export const MAX_SARIF_BYTES = 10 * 1024 * 1024;
/** Loupe's own bound on one message (GitHub documents none): a finding's texts are bounded already. */
export const MAX_SARIF_MESSAGE = 16_000;
/** The partial fingerprint's name: the ledger's code identity, version 1. */
export const FINGERPRINT_KEY = "loupeFindingId/v1";

const LEVEL: Readonly<Record<Severity, "error" | "warning" | "note">> = {
  critical: "error",
  high: "error",
  medium: "warning",
  low: "note",
  info: "note",
};

export interface SarifTool {
  readonly version: string;
  /** Where a reader learns about the tool; absent while Loupe has no published home. */
  readonly informationUri?: string;
}

/** How the review ended: completed (final_review and a plan), stopped (a reason), or not run. */
export interface SarifOutcome {
  readonly terminationReason: TerminationReason | null;
  readonly completed: boolean;
  /** Why the change was not reviewed at all (a skip code), else null. */
  readonly skipped: string | null;
  readonly skipDetail?: string;
}

export function ruleId(severity: Severity): string {
  return `loupe/${severity}`;
}

function rules(words: ForgeWords): ReportingDescriptor[] {
  return SEVERITIES.map((severity) => ({
    id: ruleId(severity),
    name: `Loupe${severity[0]!.toUpperCase()}${severity.slice(1)}Finding`,
    shortDescription: { text: `A ${severity} finding of Loupe's review` },
    fullDescription: {
      text: `A problem Loupe's reviewer found in the ${words.change}'s change and rated ${severity}.`,
    },
    defaultConfiguration: { level: LEVEL[severity] },
    properties: { tags: ["loupe", "review"], "loupe/severity": severity },
  }));
}

/** A repository path as a relative URI reference: each segment percent-encoded. */
export function pathUri(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

function message(finding: ReviewedFinding): string {
  const text = [finding.title, finding.explanation, `Recommendation: ${finding.recommendation}`]
    .map((part) => part.trim())
    .filter((part) => part !== "" && part !== "Recommendation:")
    .join("\n\n");
  return inertPlainText(text, MAX_SARIF_MESSAGE);
}

function result(finding: ReviewedFinding, words: ForgeWords): Result {
  const [startLine, endLine] = finding.lines ?? [1, 1];
  const dismissed = finding.status === "dismissed" || finding.status === "withdrawn";
  return {
    ruleId: ruleId(finding.severity),
    ruleIndex: SEVERITIES.indexOf(finding.severity),
    level: LEVEL[finding.severity],
    message: { text: message(finding) },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: pathUri(finding.path), uriBaseId: "%SRCROOT%" },
          region: { startLine, endLine },
        },
      },
    ],
    partialFingerprints: { [FINGERPRINT_KEY]: finding.id },
    ...(dismissed
      ? {
          suppressions: [
            {
              kind: "external" as const,
              status: "accepted" as const,
              justification:
                finding.status === "dismissed"
                  ? `Dismissed by a person in the ${words.change}.`
                  : `Withdrawn by Loupe in the ${words.change}.`,
            },
          ],
        }
      : {}),
    properties: {
      "loupe/id": finding.id,
      "loupe/severity": finding.severity,
      "loupe/status": finding.status,
      "loupe/verification": finding.verification,
      "loupe/posted": finding.posted,
      "loupe/wholeFile": finding.lines === null,
    },
  };
}

function invocation(outcome: SarifOutcome, left: number, words: ForgeWords) {
  const reason = outcome.terminationReason;
  const notes: { level: "error" | "warning" | "note"; text: string }[] = [];
  if (outcome.skipped !== null) {
    notes.push({ level: "note", text: `Not reviewed: ${outcome.skipDetail ?? outcome.skipped}` });
  } else if (!outcome.completed && reason !== null) {
    notes.push({ level: "error", text: terminationSentence(reason, words) });
  }
  if (left > 0)
    notes.push({ level: "warning", text: `${left} findings were left out to fit ${words.forge}'s limits.` });
  return {
    // A skipped change ran as asked; a review that stopped short did not.
    executionSuccessful: outcome.skipped !== null || outcome.completed,
    ...(notes.length === 0
      ? {}
      : {
          toolExecutionNotifications: notes.map((note) => ({
            level: note.level,
            message: { text: inertPlainText(note.text, MAX_SARIF_MESSAGE) },
          })),
        }),
    properties: {
      "loupe/completed": outcome.completed,
      "loupe/terminationReason": reason,
      "loupe/skipped": outcome.skipped,
    },
  };
}

function log(
  tool: SarifTool,
  outcome: SarifOutcome,
  results: Result[],
  left: number,
  words: ForgeWords,
): Log {
  return {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "Loupe",
            version: tool.version,
            semanticVersion: tool.version,
            ...(tool.informationUri === undefined ? {} : { informationUri: tool.informationUri }),
            rules: rules(words),
          },
        },
        invocations: [invocation(outcome, left, words)],
        columnKind: "utf16CodeUnits",
        results,
      },
    ],
  };
}

/**
 * The SARIF log's text. Findings are in the plan's order (the most severe first): when the
 * results or the file would pass GitHub's limits, the least severe are left out, and the run says
 * how many. `words`: those of the forge the log is uploaded to.
 */
export function sarifLog(
  tool: SarifTool,
  outcome: SarifOutcome,
  findings: readonly ReviewedFinding[],
  words: ForgeWords,
): string {
  let results = findings.slice(0, MAX_SARIF_RESULTS).map((finding) => result(finding, words));
  for (;;) {
    const left = findings.length - results.length;
    const text = `${JSON.stringify(log(tool, outcome, results, left, words), null, 2)}\n`;
    const bytes = Buffer.byteLength(text, "utf8");
    if (bytes <= MAX_SARIF_BYTES || results.length === 0) return text;
    // Each result's share of the file is about even: drop the excess at once, then check again.
    const keep = Math.floor((results.length * MAX_SARIF_BYTES) / bytes) - 1;
    results = results.slice(0, Math.max(0, Math.min(keep, results.length - 1)));
  }
}
