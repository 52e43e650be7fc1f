// What Loupe said before on the pull request, and the review's scope: incremental (the commits
// since its last review, with their files for the model and for resolving threads) or full, with
// the reason the check run gives. A host without history (a local change) gets a full review with
// nothing posted before, and no scope line: there is no earlier review to speak of.

import type { RepoConfig } from "../config/repo-config-schema.ts";
import { decideReviewScope, type ReviewScope } from "../conversation/review-scope.ts";
import { configDigest } from "../conversation/review-state.ts";
import type { ChangedFile } from "../domain/changed-file.ts";
import type { HostHistory, HostPeople, HostThreads } from "../host/pull-request-host.ts";
import { type LoupeHistory, NO_HISTORY, readLoupeHistory } from "./loupe-history.ts";

export interface ScopeStep {
  /** null when the host keeps no history. */
  readonly scope: ReviewScope | null;
  readonly history: LoupeHistory;
  /** What the new commits changed (compare lastHead...head), when the review is incremental. */
  readonly newFiles: readonly ChangedFile[] | null;
  readonly configDigest: string;
}

export async function scopeStep(input: {
  readonly history: HostHistory | undefined;
  /** Loupe's threads, the ledger's findings; absent: the ledger lists only the review bodies'. */
  readonly threads: HostThreads | undefined;
  /** Who may dismiss a finding (write access); absent: nobody's 👎 or resolution dismisses one. */
  readonly people: HostPeople | undefined;
  readonly askedFull: boolean;
  readonly config: RepoConfig;
  readonly headSha: string;
  readonly mergeBaseSha: string;
}): Promise<ScopeStep> {
  const digest = configDigest(input.config);
  const host = input.history;
  if (host === undefined) return { scope: null, history: NO_HISTORY, newFiles: null, configDigest: digest };
  const history = await readLoupeHistory(host, input.threads, input.people);
  let newFiles: readonly ChangedFile[] | null = null;
  const last = history.lastReviewed;
  const scope = await decideReviewScope({
    askedFull: input.askedFull,
    incrementalEnabled: input.config.incremental,
    last,
    current: { headSha: input.headSha, mergeBaseSha: input.mergeBaseSha, configDigest: digest },
    compare: async () => {
      const compared = await host.changedSince(last!.headSha, input.headSha);
      newFiles = compared?.files ?? null;
      return compared;
    },
  });
  return { scope, history, newFiles: scope.kind === "incremental" ? newFiles : null, configDigest: digest };
}
