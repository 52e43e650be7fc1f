// GitLab's answer to "what changed since the head Loupe last reviewed": the merge-base of the two
// heads says whether the old head is an ancestor (ahead), and the comparison from it lists the new
// commits and their diffs. GitLab's compare has no ahead/behind status of its own, hence the two
// calls. A 404 (the old head is gone after a force-push) is an answer, not a failure.

import type { HeadsCompared } from "../../host/pull-request-host.ts";
import { type GitLabApi, gitLabStatus } from "./gitlab-api.ts";
import { changedFile, type MergeRequestDiff } from "./merge-request-changes.ts";

export async function compareHeads(
  api: GitLabApi,
  id: string,
  input: { readonly fromSha: string; readonly toSha: string },
): Promise<HeadsCompared | null> {
  if (input.fromSha === input.toSha) return { status: "identical", aheadBy: 0, files: [] };
  try {
    const base = await api.get<{ id: string }>(
      `/projects/${id}/repository/merge_base?refs[]=${input.fromSha}&refs[]=${input.toSha}`,
    );
    if (base.id !== input.fromSha) return { status: "diverged", aheadBy: 0, files: [] };
    const compared = await api.get<{ commits: readonly unknown[]; diffs: readonly MergeRequestDiff[] }>(
      `/projects/${id}/repository/compare`,
      { from: input.fromSha, to: input.toSha, straight: true },
    );
    return {
      status: "ahead",
      aheadBy: compared.commits.length,
      files: compared.diffs.map(changedFile),
    };
  } catch (error) {
    if (gitLabStatus(error) === 404) return null;
    throw error;
  }
}
