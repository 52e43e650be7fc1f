// The workspace held for the rest of a review: removed when the review ends, however it ends.

import type { WorkspaceHandle } from "../workspace/types.ts";
import type { JobLogger } from "./job-logger.ts";

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
