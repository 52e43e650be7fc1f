// The findings of one review as machines read them (SARIF, the agents' JSON): each with a stable
// id, its status in the ledger, where it points on the head, and what verification said. Plain
// values only: the plan crosses from the repository worker to the server as a structured clone.
//
// The id is the ledger's code identity (finding-identity.ts: the path and the normalised code it
// points at, line numbers and wording left out), so the same problem keeps its id when the model
// rewords it and when unrelated edits move it. Two findings on the same code in one review are
// told apart by their order in the plan (severity, then the model's order): `<code>`, `<code>-2`.

import type { Finding, Severity } from "../domain/finding.ts";
import {
  type FindingCheck,
  findingCheck,
  type NotVerified,
  notVerifiedOf,
  type Verification,
} from "../domain/verification.ts";
import type { LedgerEntry } from "./ledger.ts";
import type { PlacedFinding, PlacedStatus } from "./plan-types.ts";

export interface ReviewedFinding {
  readonly id: string;
  readonly status: PlacedStatus;
  /** A finding a person had dismissed, posted again because the code it points at changed. */
  readonly raised_again: boolean;
  /** Where this review put it: an inline comment, the review body, or nowhere (already posted, dismissed). */
  readonly posted: "inline" | "body" | "none";
  readonly severity: Severity;
  readonly title: string;
  readonly explanation: string;
  readonly recommendation: string;
  readonly path: string;
  /** [first, last] line on the head; null when the finding names no line. */
  readonly lines: readonly [number, number] | null;
  readonly verification: FindingCheck;
  /** Why an `unverified` finding has no verdict: the budget ran out, or the verifier gave none. */
  readonly unverified: NotVerified | null;
}

/** A finding of an earlier review that the ledger says was fixed (not raised by this one). */
export interface ResolvedFinding {
  readonly id: string;
  readonly status: "fixed";
  readonly title: string;
  readonly path: string;
  readonly line: number | null;
}

/**
 * `findings` are the final review's, in its order (the verdicts are indexed by it); `placed` is
 * the plan's record of those at or above min_severity.
 */
export function reviewedFindings(
  placed: readonly PlacedFinding[],
  findings: readonly Finding[],
  verification: Verification | undefined,
): ReviewedFinding[] {
  const indexOf = new Map<Finding, number>(findings.map((finding, index) => [finding, index]));
  const taken = new Map<string, number>();
  return placed.map((entry) => {
    const seen = (taken.get(entry.identity.code) ?? 0) + 1;
    taken.set(entry.identity.code, seen);
    const { finding } = entry;
    return {
      id: seen === 1 ? entry.identity.code : `${entry.identity.code}-${seen}`,
      status: entry.status,
      raised_again: entry.raisedAgain,
      posted: entry.posted,
      severity: finding.severity,
      title: finding.title,
      explanation: finding.explanation,
      recommendation: finding.recommendation,
      path: finding.path,
      lines: entry.lines,
      verification: findingCheck(verification, indexOf.get(finding) ?? findings.length),
      unverified: notVerifiedOf(verification, indexOf.get(finding) ?? findings.length),
    };
  });
}

/** The ledger's fixed findings this review did not raise again. */
export function resolvedFindings(
  ledger: readonly LedgerEntry[],
  reviewed: readonly ReviewedFinding[],
): ResolvedFinding[] {
  const raised = new Set(reviewed.map((finding) => finding.id));
  return ledger
    .filter((entry) => entry.status === "fixed" && !raised.has(entry.identity.code))
    .map((entry) => ({
      id: entry.identity.code,
      status: "fixed",
      title: entry.title,
      path: entry.path,
      line: entry.line,
    }));
}
