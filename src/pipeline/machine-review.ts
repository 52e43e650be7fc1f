// A review's outcome for machines: the one JSON document agents and CI read
// (docs/review-result.schema.json, described in docs/machine-output.md) and the SARIF log for
// code scanning. The CLI, the Action and the App's check run all write these same values.
//
// Every text a model wrote is untrusted: it is kept as written but for characters that hide or
// reorder text (an instruction hidden in tag characters reaches no agent), and the `instruction`
// of each finding is Loupe's own sentence around it.

import type { ForgeWords } from "../domain/forge-words.ts";
import { TERMINATION_SENTENCES, terminationSentence } from "../domain/outcome.ts";
import { cutCodePoints } from "../domain/text.ts";
import { stripInvisible } from "../review/markdown-text.ts";
import type { ResolvedFinding, ReviewedFinding } from "../review/reviewed-findings.ts";
import { type SarifOutcome, type SarifTool, sarifLog } from "../review/sarif.ts";
import type { ReviewOutcome } from "./review-outcome.ts";

export const REVIEW_SCHEMA_VERSION = 1;
const MAX_INSTRUCTION = 600;

export interface LoupeTool extends SarifTool {}

/** Where a finding points, for a reader that wants a location and not a pair. */
function location(finding: ReviewedFinding) {
  return {
    path: finding.path,
    start_line: finding.lines?.[0] ?? null,
    end_line: finding.lines?.[1] ?? null,
  };
}

function instruction(finding: ReviewedFinding): string {
  const { path, lines } = finding;
  const where =
    lines === null ? path : lines[0] === lines[1] ? `${path}:${lines[0]}` : `${path}:${lines[0]}-${lines[1]}`;
  if (finding.status === "dismissed") return `No action: a person dismissed this finding at ${where}.`;
  if (finding.status === "withdrawn") return `No action: Loupe withdrew this finding at ${where}.`;
  const text = `Fix the ${finding.severity} finding at ${where}: ${clean(finding.title)} Recommended: ${clean(finding.recommendation)}`;
  return cutCodePoints(text, MAX_INSTRUCTION);
}

const clean = (text: string) => stripInvisible(text).replace(/\s+/g, " ").trim();

function findingJson(finding: ReviewedFinding) {
  return {
    id: finding.id,
    status: finding.status,
    raised_again: finding.raised_again,
    posted: finding.posted,
    severity: finding.severity,
    title: stripInvisible(finding.title),
    explanation: stripInvisible(finding.explanation),
    recommendation: stripInvisible(finding.recommendation),
    location: location(finding),
    verification: finding.verification,
    unverified_because: unverifiedBecause(finding),
    instruction: instruction(finding),
  };
}

/** Why an unverified finding has no verdict, so no operator raises a budget that never ran out. */
function unverifiedBecause(finding: ReviewedFinding) {
  const why = finding.unverified;
  if (why === null) return null;
  return why.kind === "budget"
    ? { kind: "budget" as const, termination_reason: null }
    : { kind: "no_verdict" as const, termination_reason: why.reason };
}

function resolvedJson(entry: ResolvedFinding) {
  return { ...entry, title: stripInvisible(entry.title) };
}

/** How the review ended, in the terms both outputs share. */
export function outcomeTerms(outcome: ReviewOutcome): SarifOutcome {
  switch (outcome.kind) {
    case "reviewed": {
      const reason = outcome.result.termination_reason;
      return {
        terminationReason: reason,
        completed: reason === "final_review" && outcome.plan !== null,
        skipped: null,
      };
    }
    case "skipped":
      return { terminationReason: null, completed: false, skipped: outcome.code, skipDetail: outcome.detail };
    case "cancelled":
      return { terminationReason: "cancelled", completed: false, skipped: null };
    default:
      return { terminationReason: null, completed: false, skipped: null };
  }
}

function explanationOf(outcome: ReviewOutcome, words: ForgeWords): string {
  switch (outcome.kind) {
    case "reviewed":
      return terminationSentence(outcome.result.termination_reason, words);
    case "skipped":
      return outcome.detail;
    case "cancelled":
      return TERMINATION_SENTENCES.cancelled;
    case "config_invalid":
      return "The repository's Loupe configuration is invalid.";
    case "failed":
      return "The review failed before it could finish.";
  }
}

function coverageJson(outcome: ReviewOutcome) {
  if (outcome.kind !== "reviewed") return null;
  const coverage = outcome.coverage;
  return {
    files_reviewed: outcome.filesReviewed,
    files_left_out: outcome.filesSkipped,
    changed_files: coverage?.changedFiles ?? null,
    not_reviewed: (coverage?.notReviewed ?? []).map(({ path, reason }) => ({ path, reason })),
  };
}

/**
 * Which settings layers applied and the keys each set; each directory rule by its place in its
 * file (its patterns are in the file: left out here, so the document's size stays bounded).
 */
function settingsJson(outcome: ReviewOutcome) {
  const settings = outcome.kind === "reviewed" || outcome.kind === "skipped" ? outcome.settings : undefined;
  if (settings === undefined) return null;
  return {
    layers: settings.layers.map((layer) => ({
      layer: layer.layer,
      source: layer.source,
      keys: [...layer.keys],
      ignored: layer.ignored.map(({ key, reason }) => ({ key, reason })),
    })),
    rules: settings.rules.map((rule) => ({
      layer: rule.layer,
      index: rule.index,
      sets: [...rule.sets],
      files: rule.files,
    })),
  };
}

/**
 * The agents' document (schema_version 1): a plain object, to print or to merge into more.
 * `words`: the forge's that reviewed the change, which its explanation may name.
 */
export function reviewDocument(outcome: ReviewOutcome, tool: LoupeTool, words: ForgeWords) {
  const terms = outcome.kind === "config_invalid" || outcome.kind === "failed" ? null : outcomeTerms(outcome);
  const reviewed = outcome.kind === "reviewed" ? outcome : null;
  const plan = reviewed?.plan ?? null;
  const cost = reviewed?.cost ?? { kind: "unpriced" as const };
  return {
    schema_version: REVIEW_SCHEMA_VERSION,
    tool: { name: "loupe", version: tool.version },
    outcome: {
      kind: outcome.kind,
      completed: terms?.completed ?? false,
      termination_reason: terms?.terminationReason ?? null,
      skip_reason: terms?.skipped ?? null,
      explanation: explanationOf(outcome, words),
      head_sha: reviewed?.headSha ?? null,
      coverage: coverageJson(outcome),
      cost: { source: cost.kind, dollars: cost.kind === "unpriced" ? null : cost.dollars },
      tokens: reviewed?.result.usage.total_tokens ?? 0,
      gate_failed: plan?.gateFailed ?? false,
    },
    settings: settingsJson(outcome),
    ledger: plan === null ? null : { new: plan.ledger.fresh, ...plan.ledger.counts },
    findings: (plan?.findings ?? []).map(findingJson),
    resolved: (plan?.resolved ?? []).map(resolvedJson),
  };
}

export type ReviewDocument = ReturnType<typeof reviewDocument>;

/** `words`: those of the forge the SARIF is uploaded to (its limits, what its change is called). */
export function reviewSarif(outcome: ReviewOutcome, tool: LoupeTool, words: ForgeWords): string {
  const plan = outcome.kind === "reviewed" ? outcome.plan : null;
  return sarifLog(tool, outcomeTerms(outcome), plan?.findings ?? [], words);
}
