// What Loupe already said on this pull request, from the host's raw records: the fingerprints
// hidden in its earlier review comments and review bodies, the state its newest review recorded
// (for an incremental review), whether it has any review comment (threads to consider resolving),
// and the ledger of its findings. Only texts by Loupe's own login count: another bot (or a person)
// writing a marker must not be able to silence a finding or steer the next review. The threads are
// read only when one of Loupe's comments carries an identity marker, so a pull request Loupe never
// commented on costs no thread listing.

import { dismissalCandidates, MAX_LEDGER_ENTRIES, readLedger } from "../conversation/finding-ledger.ts";
import type { HostText } from "../conversation/review-state.ts";
import { lastReviewedState, type ReviewedState } from "../conversation/review-state.ts";
import type { HostHistory, HostPeople, HostThreads } from "../host/pull-request-host.ts";
import { extractIdentities } from "../review/finding-identity.ts";
import { extractFingerprints } from "../review/fingerprint.ts";
import type { LedgerEntry } from "../review/ledger.ts";

export interface LoupeHistory {
  readonly fingerprints: Set<string>;
  readonly lastReviewed: ReviewedState | null;
  readonly hasReviewComments: boolean;
  /** Loupe's findings in its threads and what became of them (empty before the first one). */
  readonly ledger: readonly LedgerEntry[];
}

export const NO_HISTORY: LoupeHistory = {
  fingerprints: new Set(),
  lastReviewed: null,
  hasReviewComments: false,
  ledger: [],
};

/** People checked per review; a 👎 from the 21st person on a thread is not read anyway. */
const MAX_CHECKED = 50;

export async function readLoupeHistory(
  history: HostHistory,
  threads: HostThreads | undefined,
  people: HostPeople | undefined,
): Promise<LoupeHistory> {
  const records = await history.read();
  const own = (text: HostText) => text.author?.isBot === true && text.author.login === records.self;
  const fingerprints = new Set<string>();
  let hasReviewComments = false;
  let hasIdentities = false;
  for (const item of records.comments) {
    if (!own(item) || item.body === null) continue;
    hasReviewComments = true;
    for (const fp of extractFingerprints(item.body)) fingerprints.add(fp);
    hasIdentities ||= extractIdentities(item.body, 1).length > 0;
  }
  const reviews = records.reviews.filter(own);
  for (const item of reviews) {
    if (item.body !== null) for (const fp of extractFingerprints(item.body)) fingerprints.add(fp);
  }
  const entries = hasIdentities && threads ? await threadEntries(threads, people, records.self) : [];
  const ledger = [...entries, ...bodyEntries(reviews)];
  const lastReviewed = lastReviewedState(reviews, records.self);
  return { fingerprints, lastReviewed, hasReviewComments, ledger };
}

/** Loupe's threads, each finding dismissed only by someone who can write to the repository. */
async function threadEntries(
  host: HostThreads,
  people: HostPeople | undefined,
  self: string,
): Promise<LedgerEntry[]> {
  const { threads } = await host.list({ thumbsDown: true });
  // One answer per person for this review (logins are case-insensitive), however many threads
  // they reacted on or resolved.
  const asked = new Set<string>();
  const writers = new Set<string>();
  const candidates = [...dismissalCandidates(threads, self)].slice(0, MAX_CHECKED);
  for (const login of candidates) {
    const id = login.toLowerCase();
    if (people === undefined || asked.has(id)) continue;
    asked.add(id);
    // The host not answering is not a yes: the finding stays open, and the next review asks again.
    if (await people.canWrite(login).catch(() => false)) writers.add(id);
  }
  return readLedger({ threads, botLogin: self, writers });
}

/**
 * Findings Loupe listed in its review bodies (outside the diff, or all of them after a 422): no
 * thread, so nobody can dismiss them; they are open, and known so that they are not listed again.
 */
function bodyEntries(own: readonly HostText[]): LedgerEntry[] {
  const entries: LedgerEntry[] = [];
  for (const review of own) {
    if (review.body === null) continue;
    for (const identity of extractIdentities(review.body, MAX_LEDGER_ENTRIES - entries.length)) {
      entries.push({
        identity,
        fingerprint: null,
        status: "open",
        title: "",
        path: "",
        line: null,
        dismissal: null,
      });
    }
  }
  return entries;
}
