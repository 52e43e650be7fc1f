// The verification pass over a review's findings: each candidate is checked again against the
// head commit by a separate loop, which answers one of three verdicts. A refutation only counts
// with a quote of the head commit that shows more than the claim itself, and it removes only a
// finding below high severity: a refuted high or critical finding is posted marked as disputed.
// What the pass did is kept so the check run can list every finding it held back or disputed,
// and every one it left without a verdict, and why.

import type { Finding, Severity } from "./finding.ts";
import type { TerminationReason } from "./outcome.ts";

export const VERDICTS = ["confirmed", "plausible", "refuted"] as const;
export type Verdict = (typeof VERDICTS)[number];

/** One verifier's answer, as validated (before its quote is checked against the head commit). */
export interface FindingVerdict {
  readonly verdict: Verdict;
  readonly reason: string;
  /** For a refutation: the head commit's line(s) that prove the finding wrong. */
  readonly quote: string | null;
}

export interface RefutedFinding {
  readonly finding: Finding;
  readonly reason: string;
  readonly quote: string;
}

/** Severities a refutation never removes: the finding is posted as disputed instead. */
export const DISPUTED_SEVERITIES: ReadonlySet<Severity> = new Set<Severity>(["critical", "high"]);

/**
 * Why a finding was posted without a verdict: the review's tokens or time had too little left to
 * check it (`budget`), or a verifier's loop ended without a verdict (`no_verdict`, with how it
 * ended: the provider failed, the model did not answer in the verdict's schema…). After one check
 * ended without a verdict no more are started, and those left say the same reason.
 */
export type NotVerified =
  | { readonly kind: "budget" }
  | { readonly kind: "no_verdict"; readonly reason: TerminationReason };

export interface UnverifiedFinding {
  readonly finding: Finding;
  readonly why: NotVerified;
}

export interface Verification {
  /** Findings the pass checked and kept (confirmed, plausible, or refuted without a valid quote). */
  readonly kept: number;
  /** Refutations whose quote was not found near the finding's line: the finding stays. */
  readonly unproven: number;
  /** Held back: not posted, listed in the check run with the quote. */
  readonly refuted: readonly RefutedFinding[];
  /** Refuted at high or critical severity: posted marked as disputed, and listed with the quote. */
  readonly disputed: readonly RefutedFinding[];
  /** Checked findings whose evidence quotes no head code near their lines (a signal, never a gate). */
  readonly unquoted: number;
  /** Left without a verdict (the budget ran out, or the verifier gave none): posted, and marked. */
  readonly unverified: readonly UnverifiedFinding[];
  /**
   * The verdict on each checked finding the review still posts, in order: the review's findings
   * start with these, then the unverified ones. A "refuted" here is one whose quote did not prove
   * it (unproven); "disputed", one proven but too severe to hold back.
   */
  readonly verdicts?: readonly (Verdict | "disputed")[];
}

/** What the verification pass said of one posted finding, as machine output names it. */
export type FindingCheck =
  | "confirmed"
  | "plausible"
  | "refuted_unproven"
  | "disputed"
  | "unverified"
  | "not_verified";

/** Why the review's `index`-th finding has no verdict; null when it has one or the pass did not run. */
export function notVerifiedOf(verification: Verification | undefined, index: number): NotVerified | null {
  if (verification === undefined) return null;
  const checked = verification.verdicts?.length ?? 0;
  return index < checked ? null : (verification.unverified[index - checked]?.why ?? null);
}

/** The check of the review's `index`-th finding; "not_verified" when the pass did not run. */
export function findingCheck(verification: Verification | undefined, index: number): FindingCheck {
  if (verification === undefined) return "not_verified";
  const verdict = verification.verdicts?.[index];
  if (verdict === undefined) return "unverified";
  return verdict === "refuted" ? "refuted_unproven" : verdict;
}
