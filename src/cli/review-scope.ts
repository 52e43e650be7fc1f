// What the App decides from `.github/loupe.yml` before and after the model runs, applied to a
// local change: the same skips (disabled, more files than max_files, nothing left after the
// `paths` rules), the same reviewable files (deleted files and excluded paths left out), and the
// same publishing plan (min_severity, max_findings inline, the rest "Outside the diff").

import { isPathIncluded, type RepoConfig } from "../config/repo-config.ts";
import { planPublication } from "../jobs/plan-publication.ts";
import type { PlannedReview } from "../jobs/review-ports.ts";
import type { LoopResult } from "../llm/types.ts";
import type { TreeChange } from "../workspace/tree-diff.ts";
import type { RepositoryView } from "../workspace/types.ts";
import { localChangedFiles } from "./local-changed-files.ts";

export type ReviewScope =
  | { readonly kind: "review"; readonly reviewable: readonly TreeChange[]; readonly leftOut: number }
  | {
      readonly kind: "skip";
      readonly reason: "disabled" | "too_many_files" | "no_files";
      readonly detail: string;
    };

export function scopeReview(config: RepoConfig, changes: readonly TreeChange[]): ReviewScope {
  if (!config.enabled) {
    return { kind: "skip", reason: "disabled", detail: "Loupe is disabled in `.github/loupe.yml`." };
  }
  if (changes.length > config.max_files) {
    return {
      kind: "skip",
      reason: "too_many_files",
      detail: `The change has ${changes.length} files; \`max_files\` is ${config.max_files}.`,
    };
  }
  const reviewable = changes.filter((c) => c.status !== "deleted" && isPathIncluded(config, c.path));
  if (reviewable.length === 0) {
    return {
      kind: "skip",
      reason: "no_files",
      detail: "No reviewable files after the `paths` include/exclude rules.",
    };
  }
  return { kind: "review", reviewable, leftOut: changes.length - reviewable.length };
}

export interface PlanLocalReviewInput {
  readonly result: LoopResult;
  readonly view: RepositoryView;
  readonly changes: readonly TreeChange[];
  readonly config: RepoConfig;
  /** owner/repo and host: the links the sanitiser keeps in model text point only there. */
  readonly repository: { readonly owner: string; readonly repo: string; readonly host: string };
}

/** The App's plan for this result, as if nothing had been posted before (check run id 0). */
export async function planLocalReview(input: PlanLocalReviewInput): Promise<PlannedReview | null> {
  if (input.result.review === null) return null;
  return await planPublication({
    result: input.result,
    files: await localChangedFiles(input.changes, input.view.objects),
    config: input.config,
    postedFingerprints: new Set(),
    checkRunId: 0,
    owner: input.repository.owner,
    repo: input.repository.repo,
    host: input.repository.host,
    headSha: input.view.head.commit,
    view: input.view,
  });
}
