// The ledger of Loupe's findings on a pull request, read from GitHub: its own review threads (the
// identity markers in its first comments, its replies' status markers, who resolved each, the 👎
// on each) and, for each person whose 👎 or resolution could dismiss a finding, whether they can
// write to the repository. Read only when one of Loupe's comments carries an identity marker, so a
// pull request Loupe never commented on costs no GraphQL call.

import { dismissalCandidates, readLedger } from "../conversation/finding-ledger.ts";
import { createPermissionCache } from "../conversation/permission-cache.ts";
import type { LedgerEntry } from "../review/ledger.ts";
import { createConversationApi } from "./conversation-api.ts";
import type { GitHubClient, RepoRef } from "./octokit.ts";
import { listReviewThreads } from "./review-threads.ts";

/** People checked per review; a 👎 from the 21st person on a thread is not read anyway. */
const MAX_CHECKED = 50;

export async function readLedgerFromGitHub(
  octokit: GitHubClient,
  input: RepoRef & { readonly pullNumber: number; readonly botLogin: string },
): Promise<LedgerEntry[]> {
  const threads = await listReviewThreads(octokit, input);
  const api = createConversationApi(octokit, input);
  // One answer per person for this review, however many threads they reacted on or resolved.
  const cache = createPermissionCache();
  const writers = new Set<string>();
  const candidates = [...dismissalCandidates(threads, input.botLogin)].slice(0, MAX_CHECKED);
  for (const login of candidates) {
    const key = { installationId: 0, owner: input.owner, repo: input.repo, login };
    // GitHub not answering is not a yes: the finding stays open, and the next review asks again.
    const writer = await cache.canWrite(key, () => api.canWrite(login)).catch(() => false);
    if (writer) writers.add(login.toLowerCase());
  }
  return readLedger({ threads, botLogin: input.botLogin, writers });
}
