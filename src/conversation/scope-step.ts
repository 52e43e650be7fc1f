// The step of a review that reads what Loupe said before on the pull request and decides its
// scope: incremental (the commits since the last reviewed head, with their files for the model
// and for resolving threads) or full, with the reason the check run gives.

import type { RepoConfig } from "../config/repo-config.ts";
import { compareHeads } from "../github/compare-heads.ts";
import type { GitHubClient, RepoRef } from "../github/octokit.ts";
import { type LoupeHistory, readLoupeHistory } from "../github/posted-fingerprints.ts";
import type { ComparedFile } from "./file-changes.ts";
import { decideReviewScope, type ReviewScope } from "./review-scope.ts";
import { configDigest } from "./review-state.ts";

export interface ScopeStep {
  readonly scope: ReviewScope;
  readonly history: LoupeHistory;
  /** What the new commits changed (compare lastHead...head), when the review is incremental. */
  readonly newFiles: readonly ComparedFile[] | null;
  readonly configDigest: string;
}

export async function scopeStep(input: {
  readonly octokit: GitHubClient;
  readonly repoRef: RepoRef;
  readonly pullNumber: number;
  readonly botLogin: string;
  readonly askedFull: boolean;
  readonly config: RepoConfig;
  readonly headSha: string;
  readonly mergeBaseSha: string;
}): Promise<ScopeStep> {
  const { octokit, repoRef } = input;
  const history = await readLoupeHistory(octokit, {
    ...repoRef,
    pullNumber: input.pullNumber,
    botLogin: input.botLogin,
  });
  const digest = configDigest(input.config);
  let newFiles: readonly ComparedFile[] | null = null;
  const last = history.lastReviewed;
  const scope = await decideReviewScope({
    askedFull: input.askedFull,
    incrementalEnabled: input.config.incremental,
    last,
    current: { headSha: input.headSha, mergeBaseSha: input.mergeBaseSha, configDigest: digest },
    compare: async () => {
      const compared = await compareHeads(octokit, {
        ...repoRef,
        fromSha: last!.headSha,
        toSha: input.headSha,
      });
      newFiles = compared?.files ?? null;
      return compared;
    },
  });
  return { scope, history, newFiles: scope.kind === "incremental" ? newFiles : null, configDigest: digest };
}
