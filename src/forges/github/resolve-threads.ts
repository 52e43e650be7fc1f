// After a review: resolve Loupe's own threads whose finding no longer applies (see
// select-resolvable.ts for the rule). Skipped without a call when Loupe never left a review comment
// on the pull request; a failure here is reported in the check run, never fails the review.

import { fileChanges } from "../../conversation/file-changes.ts";
import { loupeFingerprint } from "../../conversation/review-thread.ts";
import { selectResolvable } from "../../conversation/select-resolvable.ts";
import type { ChangedFile } from "../../domain/changed-file.ts";
import type { GitHubClient, RepoRef } from "./octokit.ts";
import { listReviewThreads, resolveThreads } from "./review-threads.ts";

export interface ResolveOutcome {
  readonly resolved: number;
  readonly failed: number;
  /** The fingerprints of the findings whose threads GitHub confirmed resolved (the ledger's fixed). */
  readonly fingerprints: readonly string[];
}

export async function resolveFixedThreads(input: {
  readonly octokit: GitHubClient;
  readonly repoRef: RepoRef;
  readonly pullNumber: number;
  readonly botLogin: string;
  readonly raised: ReadonlySet<string>;
  /** The incremental diff's files; null after a full review. */
  readonly newFiles: readonly ChangedFile[] | null;
  readonly hasReviewComments: boolean;
}): Promise<ResolveOutcome> {
  if (!input.hasReviewComments) return { resolved: 0, failed: 0, fingerprints: [] };
  const threads = await listReviewThreads(input.octokit, { ...input.repoRef, pullNumber: input.pullNumber });
  const chosen = selectResolvable({
    threads,
    botLogin: input.botLogin,
    raisedAgain: input.raised,
    changes: input.newFiles === null ? null : fileChanges(input.newFiles),
  });
  const { resolved, failed, resolvedThreads } = await resolveThreads(input.octokit, chosen);
  const fingerprints = resolvedThreads.flatMap((thread) => loupeFingerprint(thread, input.botLogin) ?? []);
  return { resolved, failed, fingerprints };
}
