// The verification pass over a review's findings: each candidate is checked again against the
// head commit by a separate loop, which answers one of three verdicts. A refutation only removes
// a finding with a quote of the head commit that proves it; what the pass did is kept so the
// check run can list every finding it held back, and every one it had no budget left to check.

import type { Finding } from "./finding.ts";

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

export interface Verification {
  /** Findings the pass checked and kept (confirmed, plausible, or refuted without a valid quote). */
  readonly kept: number;
  /** Refutations whose quote was not found near the finding's line: the finding stays. */
  readonly unproven: number;
  /** Held back: not posted, listed in the check run with the quote. */
  readonly refuted: readonly RefutedFinding[];
  /** Left unchecked when the review's budget ran out: posted, and marked in the check run. */
  readonly unverified: readonly Finding[];
  /**
   * The verdict on each kept finding, in order: the review's findings start with the kept ones,
   * then the unverified ones. A "refuted" here is one whose quote was not found (unproven).
   */
  readonly verdicts?: readonly Verdict[];
}

/** What the verification pass said of one posted finding, as machine output names it. */
export type FindingCheck = "confirmed" | "plausible" | "refuted_unproven" | "unverified" | "not_verified";

/** The check of the review's `index`-th finding; "not_verified" when the pass did not run. */
export function findingCheck(verification: Verification | undefined, index: number): FindingCheck {
  if (verification === undefined) return "not_verified";
  const verdict = verification.verdicts?.[index];
  if (verdict === undefined) return index < verification.kept ? "not_verified" : "unverified";
  return verdict === "refuted" ? "refuted_unproven" : verdict;
}
