// The ledger of Loupe's findings on one pull request, as read back from GitHub (Loupe keeps no
// state of its own): each finding Loupe posted, its identity, and what became of it. Matching a
// new finding against it decides whether the finding is new, a repeat, one a person dismissed, or
// one a person dismissed that comes back because the code it points at changed.

import { type FindingIdentity, sameClaimElsewhere, sameFinding } from "./finding-identity.ts";
import { type Block, paragraph, text } from "./markdown-tree.ts";
import { listedText } from "./render-verification.ts";
import type { ReferenceSyntax } from "./wide-references.ts";

export const LEDGER_STATUSES = ["open", "fixed", "withdrawn", "dismissed"] as const;
export type LedgerStatus = (typeof LEDGER_STATUSES)[number];

export interface Dismissal {
  /** The login of the person with write access who dismissed it. */
  readonly by: string;
  /** ISO 8601, when GitHub says; null when it does not (a resolved thread). */
  readonly at: string | null;
  readonly how: "reply" | "reaction" | "resolved";
}

export interface LedgerEntry {
  readonly identity: FindingIdentity;
  /** The legacy fingerprint in the same comment (threads are resolved by it). */
  readonly fingerprint: string | null;
  readonly status: LedgerStatus;
  /** The finding's title as Loupe posted it (its own escaped text), for the model's list. */
  readonly title: string;
  readonly path: string;
  readonly line: number | null;
  readonly dismissal: Dismissal | null;
}

export type LedgerMatch =
  | { readonly kind: "new" }
  /** The same finding is on the ledger: never posted again. */
  | { readonly kind: "known"; readonly entry: LedgerEntry }
  /** A dismissed finding whose code changed since: posted again, saying so. */
  | { readonly kind: "raised_again"; readonly entry: LedgerEntry };

/**
 * Fixed findings that come back on the very same code are posted again (a regression); open,
 * withdrawn and dismissed ones are not.
 */
export function matchLedger(identity: FindingIdentity, ledger: readonly LedgerEntry[]): LedgerMatch {
  for (const entry of ledger) {
    if (entry.status !== "fixed" && sameFinding(identity, entry.identity)) return { kind: "known", entry };
  }
  for (const entry of ledger) {
    if (entry.status === "dismissed" && sameClaimElsewhere(identity, entry.identity)) {
      return { kind: "raised_again", entry };
    }
  }
  return { kind: "new" };
}

/**
 * The ledger after this review resolved the threads of findings that no longer apply (their code
 * changed and the model did not raise them again): those open findings are now fixed, as the
 * next review will read them back from GitHub.
 */
export function afterResolution(
  ledger: readonly LedgerEntry[],
  fingerprints: ReadonlySet<string>,
): LedgerEntry[] {
  return ledger.map((entry) =>
    entry.status === "open" && entry.fingerprint !== null && fingerprints.has(entry.fingerprint)
      ? { ...entry, status: "fixed" }
      : entry,
  );
}

export type LedgerCounts = Readonly<Record<LedgerStatus, number>>;

export function countLedger(ledger: readonly LedgerEntry[]): LedgerCounts {
  const counts: Record<LedgerStatus, number> = { open: 0, fixed: 0, withdrawn: 0, dismissed: 0 };
  for (const entry of ledger) counts[entry.status]++;
  return counts;
}

/** The ledger as the check run shows it: this review's new findings, and the ledger's counts. */
export interface LedgerSummary {
  readonly fresh: number;
  readonly counts: LedgerCounts;
  /** Findings the model raised again that a person had dismissed (not posted). */
  readonly dismissedRepeats: number;
  /** The dismissed findings, who dismissed each, when and how (the first MAX_DISMISSALS_SHOWN). */
  readonly dismissals: readonly DismissedFinding[];
}

export interface DismissedFinding {
  readonly path: string;
  readonly line: number | null;
  readonly title: string;
  readonly dismissal: Dismissal;
}

export const MAX_DISMISSALS_SHOWN = 20;

export function summariseLedger(
  ledger: readonly LedgerEntry[],
  fresh: number,
  dismissedRepeats: number,
): LedgerSummary {
  const dismissals = ledger
    .flatMap(({ path, line, title, dismissal }) =>
      dismissal === null ? [] : [{ path, line, title, dismissal }],
    )
    .slice(0, MAX_DISMISSALS_SHOWN);
  return { fresh, counts: countLedger(ledger), dismissedRepeats, dismissals };
}

const HOW: Readonly<Record<Dismissal["how"], string>> = {
  reaction: "a 👎 on the finding",
  resolved: "resolved the thread, code unchanged",
  reply: "a reply in the thread",
};

/** "src/a.ts:3 · <title> — dismissed by octocat (a 👎 on the finding, 2026-01-02)", as plain text. */
export function describeDismissal(entry: DismissedFinding): string {
  const where = entry.line === null ? entry.path : `${entry.path}:${entry.line}`;
  const when = entry.dismissal.at === null ? "" : `, ${entry.dismissal.at.slice(0, 10)}`;
  return `${where} · ${entry.title} — dismissed by ${entry.dismissal.by} (${HOW[entry.dismissal.how]}${when})`;
}

/** One line for the check run. */
export function describeLedger(summary: LedgerSummary): string {
  const { counts } = summary;
  return (
    `Finding ledger: ${summary.fresh} new this review, ${counts.open} still open, ${counts.fixed} fixed, ` +
    `${counts.withdrawn} withdrawn, ${counts.dismissed} dismissed` +
    (summary.dismissedRepeats > 0
      ? ` (${summary.dismissedRepeats} dismissed earlier, not raised again).`
      : ".")
  );
}

/** The ledger line, then who dismissed what, one line each: titles and logins are escaped text. */
export function ledgerBlocks(ledger: LedgerSummary, references?: ReferenceSyntax): Block[] {
  const blocks = [paragraph(text(describeLedger(ledger)))];
  for (const dismissed of ledger.dismissals) {
    const title = listedText(dismissed.title, 300, references);
    blocks.push(paragraph(text(`• ${describeDismissal({ ...dismissed, title })}`)));
  }
  return blocks;
}
