// The verification pass over a review's findings: each candidate is checked again against the
// head commit by a separate loop, which answers one of three verdicts. A refutation only counts
// with a quote of the head commit that shows more than the claim itself, and it removes only a
// finding below high severity: a refuted high or critical finding is posted marked as disputed.
// What the pass did is kept so the check run can list every finding it held back or disputed,
// and every one it had no budget left to check.

import type { Finding, Severity } from "./finding.ts";

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
  /** Left unchecked when the review's budget ran out: posted, and marked in the check run. */
  readonly unverified: readonly Finding[];
}
