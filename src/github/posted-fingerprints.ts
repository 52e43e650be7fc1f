// What Loupe already said on this pull request, read once per review: the fingerprints hidden in
// its earlier review comments and review bodies, the state its newest review recorded (for an
// incremental review), and whether it has any review comment (threads to consider resolving).
// Only texts by Loupe's own bot login (`<app slug>[bot]`) count: another bot (or a person)
// writing a marker must not be able to silence a finding or steer the next review.

import { MAX_LEDGER_ENTRIES } from "../conversation/finding-ledger.ts";
import { lastReviewedState, type ReviewedState } from "../conversation/review-state.ts";
import { extractIdentities } from "../review/finding-identity.ts";
import { extractFingerprints } from "../review/fingerprint.ts";
import type { LedgerEntry } from "../review/ledger.ts";
import { readLedgerFromGitHub } from "./ledger-history.ts";
import { listPullRequestInSlices } from "./list-in-slices.ts";
import type { GitHubClient, RepoRef } from "./octokit.ts";

export interface Authored {
  readonly id: number;
  readonly body?: string | null;
  readonly user?: { readonly login?: string; readonly type?: string } | null;
  readonly submitted_at?: string | null;
}

export function isLoupeAuthored(item: Omit<Authored, "id">, botLogin: string): boolean {
  return item.user?.type === "Bot" && item.user.login === botLogin;
}

export interface LoupeHistory {
  readonly fingerprints: Set<string>;
  readonly lastReviewed: ReviewedState | null;
  readonly hasReviewComments: boolean;
  /** Loupe's findings in its threads and what became of them (empty before the first one). */
  readonly ledger: readonly LedgerEntry[];
}

export async function readLoupeHistory(
  octokit: GitHubClient,
  input: RepoRef & { readonly pullNumber: number; readonly botLogin: string },
): Promise<LoupeHistory> {
  const [comments, reviews] = await Promise.all([
    listPullRequestInSlices<Authored>(
      octokit,
      input,
      octokit.rest.pulls.listReviewComments,
      "GitHub's list of the pull request's review comments",
    ),
    listReviewsInSlices(octokit, input),
  ]);
  const fingerprints = new Set<string>();
  let hasReviewComments = false;
  let hasIdentities = false;
  for (const item of comments) {
    if (!isLoupeAuthored(item, input.botLogin) || typeof item.body !== "string") continue;
    hasReviewComments = true;
    for (const fp of extractFingerprints(item.body)) fingerprints.add(fp);
    hasIdentities ||= extractIdentities(item.body, 1).length > 0;
  }
  const own = reviews.filter((r) => isLoupeAuthored(r, input.botLogin));
  for (const item of own) {
    if (typeof item.body === "string") for (const fp of extractFingerprints(item.body)) fingerprints.add(fp);
  }
  const threads = hasIdentities ? await readLedgerFromGitHub(octokit, input) : [];
  const ledger = [...threads, ...bodyEntries(own)];
  return { fingerprints, lastReviewed: lastReviewedState(own, input.botLogin), hasReviewComments, ledger };
}

/**
 * Findings Loupe listed in its review bodies (outside the diff, or all of them after a 422): no
 * thread, so nobody can dismiss them; they are open, and known so that they are not listed again.
 */
function bodyEntries(own: readonly Authored[]): LedgerEntry[] {
  const entries: LedgerEntry[] = [];
  for (const review of own) {
    if (typeof review.body !== "string") continue;
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

/** Every review on the pull request, each page parsed a piece at a time. */
export function listReviewsInSlices(
  octokit: GitHubClient,
  pr: RepoRef & { readonly pullNumber: number },
): Promise<Authored[]> {
  return listPullRequestInSlices<Authored>(
    octokit,
    pr,
    octokit.rest.pulls.listReviews,
    "GitHub's list of the pull request's reviews",
  );
}
