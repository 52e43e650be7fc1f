// The two commits under review, from the host. A repository too big to fetch is a fact about it,
// like too many files: a skip that names the operator's limit, not a fault. A fetch whose worker
// was stopped (out of memory or time: a hostile repository can cause both) is a value too.

import { isLoupeError } from "../domain/errors.ts";
import type { WorkerStopReason } from "../domain/outcome.ts";
import type { PullRequest } from "../domain/pull-request.ts";
import { ENVIRONMENT_NAMES, type SettingNames, settingCode } from "../domain/setting-names.ts";
import type { PullRequestHost } from "../host/pull-request-host.ts";
import type { JobLogger } from "../log/job-logger.ts";
import { SNAPSHOT_MAX_DEPTH, SNAPSHOT_MAX_PATHS } from "../workspace/snapshot-bounds.ts";
import type { WorkspaceHandle } from "../workspace/types.ts";
import type { ReviewDeadline } from "./review-deadline.ts";
import { type ReviewOutcome, skipped } from "./review-outcome.ts";
import { workerStopOf } from "./stopped-review.ts";

export type WorkspaceStep<W extends WorkspaceHandle> =
  | { readonly kind: "workspace"; readonly workspace: W }
  | { readonly kind: "stopped"; readonly reason: WorkerStopReason | "review_timeout" }
  | ReviewOutcome;

export async function openWorkspaceStep<W extends WorkspaceHandle>(
  host: PullRequestHost<W>,
  input: {
    readonly pullRequest: PullRequest;
    readonly mergeBaseSha: string;
    /** The caller's cancellation. */
    readonly signal: AbortSignal;
    /** The review's deadline: the fetch and the walk of the trees stop when it fires. */
    readonly deadline: ReviewDeadline;
    /** How the skip names the fetch limit (the Action: its input). */
    readonly names?: SettingNames;
  },
): Promise<WorkspaceStep<W>> {
  const { names, deadline, ...target } = input;
  try {
    return { kind: "workspace", workspace: await host.openWorkspace({ ...target, signal: deadline.signal }) };
  } catch (error) {
    const stopped = workerStopOf(error);
    if (stopped !== null) return { kind: "stopped", reason: stopped };
    // A cancellation is the caller's to report; the deadline is the review's own ending.
    if (deadline.passed() && !input.signal.aborted) return { kind: "stopped", reason: "review_timeout" };
    const ending = repositoryEnding(error, names ?? ENVIRONMENT_NAMES);
    if (ending === null) throw error;
    return ending;
  }
}

/**
 * A repository too large to fetch or to walk, as its skip; null for any other error. Also met
 * before the pipeline opens the workspace, by a host that reads the repository first (the CLI's).
 */
export function repositoryEnding(
  error: unknown,
  names: SettingNames = ENVIRONMENT_NAMES,
): ReviewOutcome | null {
  if (isLoupeError(error, "git_repository_too_large")) {
    const limit = settingCode(names, "REVIEW_MAX_FETCH_BYTES", "the fetch limit");
    return skipped(
      "repository_too_large",
      `The repository is too large to fetch: ${error.message}. The operator's limit is ${limit}; nothing was sent to the model.`,
    );
  }
  if (isLoupeError(error, "git_tree_too_large")) {
    return skipped(
      "repository_too_large",
      `The repository's tree is too large to read: ${error.message}. Loupe reads at most ${SNAPSHOT_MAX_PATHS} paths, ${SNAPSHOT_MAX_DEPTH} directories deep, in a commit; nothing was sent to the model.`,
    );
  }
  return null;
}

/** Removes the workspace when the review ends, however it ends; a failure to is only logged. */
export function disposable<W extends WorkspaceHandle>(
  workspace: W,
  log: JobLogger,
): AsyncDisposable & { readonly value: W } {
  return {
    value: workspace,
    [Symbol.asyncDispose]: () => workspace.dispose().catch(() => log.warn({}, "workspace dispose failed")),
  };
}
