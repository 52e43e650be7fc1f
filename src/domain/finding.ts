// A finding and the final review as the model returns them (after validation), and the severity
// scale every part of Loupe orders, filters and counts by — spelled once, here.

export const SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;

export type Severity = (typeof SEVERITIES)[number];

export interface Finding {
  readonly severity: Severity;
  readonly title: string;
  readonly explanation: string;
  readonly path: string;
  readonly line: number | null;
  readonly end_line?: number | null;
  readonly evidence: string;
  readonly recommendation: string;
  readonly suggestion?: string | null;
  /** Set by verification, never by the model: refuted with a quote, but too severe to hold back. */
  readonly disputed?: Dispute;
}

/** A verifier's refutation of a finding posted all the same: its reason, and the head code it quoted. */
export interface Dispute {
  readonly reason: string;
  readonly quote: string;
}

export interface FinalReview {
  readonly summary: string;
  readonly findings: readonly Finding[];
  readonly notes: readonly string[];
}
