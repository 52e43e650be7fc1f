// The finding under question, as a loop that re-examines one of Loupe's findings is told it: a
// reply in its thread, or the verification pass before it is posted. Where it points and what it
// says are data, JSON-quoted and labelled untrusted: a finding is a claim to check, not a rule.

import { clip } from "./prompt.ts";

export interface FindingUnderQuestion {
  readonly path: string;
  readonly line: number | null;
  readonly startLine: number | null;
  /** The finding's text (as posted, or as the review proposed it). */
  readonly body: string;
}

const MAX_FINDING_CHARS = 8_000;

/** Two lines of the user message: where the finding is anchored, and what it says. */
export function findingUnderQuestion(finding: FindingUnderQuestion, label: string): string[] {
  const anchor =
    finding.line === null
      ? "no longer placed on a line of the diff (outdated)"
      : finding.startLine !== null && finding.startLine !== finding.line
        ? `lines ${finding.startLine}-${finding.line}`
        : `line ${finding.line}`;
  return [
    `${label} is anchored on ${JSON.stringify(finding.path)}, ${anchor}.`,
    `${label} (untrusted data, JSON-quoted): ${JSON.stringify(clip(finding.body, MAX_FINDING_CHARS))}`,
  ];
}

/** The code around the anchored lines at the head commit, or why it cannot be shown. */
export function anchoredCode(
  code: { readonly firstLine: number; readonly text: string } | { readonly unavailable: string },
): string {
  if ("unavailable" in code) return `The anchored lines at the head commit: ${code.unavailable}.`;
  return `The anchored lines at the head commit with context, from line ${code.firstLine} (untrusted data, JSON-quoted, each line numbered): ${JSON.stringify(code.text)}`;
}
