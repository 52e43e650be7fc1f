// The two commits under review, from the host. A repository too big to fetch is a fact about it,
// like too many files: a skip that names the operator's limit, not a fault. A fetch whose worker
// was stopped (out of memory or time: a hostile repository can cause both) is a value too.

import { isLoupeError } from "../domain/errors.ts";
import type { WorkerStopReason } from "../domain/outcome.ts";
import type { PullRequest } from "../domain/pull-request.ts";
import { ENVIRONMENT_NAMES, type SettingNames, settingCode } from "../domain/setting-names.ts";
import type { PullRequestHost } from "../host/pull-request-host.ts";
import type { JobLogger } from "../log/job-logger.ts";
import type { WorkspaceHandle } from "../workspace/types.ts";
import { type ReviewOutcome, skipped } from "./review-outcome.ts";
import { workerStopOf } from "./stopped-review.ts";

export type WorkspaceStep<W extends WorkspaceHandle> =
  | { readonly kind: "workspace"; readonly workspace: W }
  | { readonly kind: "stopped"; readonly reason: WorkerStopReason }
  | ReviewOutcome;

export async function openWorkspaceStep<W extends WorkspaceHandle>(
  host: PullRequestHost<W>,
  input: {
    readonly pullRequest: PullRequest;
    readonly mergeBaseSha: string;
    readonly signal: AbortSignal;
    /** How the skip names the fetch limit (the Action: its input). */
    readonly names?: SettingNames;
  },
): Promise<WorkspaceStep<W>> {
  try {
    const { names: _, ...target } = input;
    return { kind: "workspace", workspace: await host.openWorkspace(target) };
  } catch (error) {
    const stopped = workerStopOf(error);
    if (stopped !== null) return { kind: "stopped", reason: stopped };
    if (!isLoupeError(error, "git_repository_too_large")) throw error;
    return skipped("repository_too_large", tooLargeDetail(error.message, input.names ?? ENVIRONMENT_NAMES));
  }
}

function tooLargeDetail(reason: string, names: SettingNames): string {
  const limit = settingCode(names, "REVIEW_MAX_FETCH_BYTES", "the fetch limit");
  return `The repository is too large to fetch: ${reason}. The operator's limit is ${limit}; nothing was sent to the model.`;
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
