// What the check run is on GitHub, on GitLab: a commit status on the head (pending while the
// review runs; success, failed or canceled at the end) whose description names how it ended —
// a job of stage `external` in the newest pipeline for that commit (or a new external pipeline),
// so a `failed` one fails that pipeline and blocks a merge under "Pipelines must succeed" — and
// one summary note on the merge request, found by its hidden marker among Loupe's own notes and
// updated in place, carrying what the check run carries (how it ended, coverage, cost, ledger).

import { type GitLabApi, projectId } from "./gitlab-api.ts";
import { type GitLabTarget, projectPath } from "./merge-request.ts";
import { listNotes } from "./notes.ts";

export type StatusState = "pending" | "running" | "success" | "failed" | "canceled";

/** GitLab keeps a status's description to 255 characters. */
const DESCRIPTION_MAX = 255;
export const SUMMARY_MARKER = "<!-- loupe:summary -->";

export interface MergeRequestStatus {
  /**
   * Sets the head's status on `ref` (the source branch, or a fork's refs/merge-requests/<iid>/head);
   * answers the status's id (the review's markers carry it).
   */
  set(sha: string, ref: string, state: StatusState, description: string): Promise<number>;
  /** Writes the summary note, or updates the one Loupe wrote before. */
  summary(body: string): Promise<void>;
}

export function mergeRequestStatus(
  api: GitLabApi,
  input: { readonly target: GitLabTarget; readonly name: string; readonly self: () => Promise<string> },
): MergeRequestStatus {
  const id = projectId(projectPath(input.target));
  const mr = `/projects/${id}/merge_requests/${input.target.pullNumber}`;
  return {
    async set(sha, ref, state, description) {
      // One line: GitLab shows it as a line of text (and the client makes it inert like a note).
      const line = description.replace(/\s+/g, " ").trim();
      const status = await api.post<{ id: number }>(`/projects/${id}/statuses/${sha}`, {
        state,
        ref,
        name: input.name,
        description: line.length > DESCRIPTION_MAX ? `${line.slice(0, DESCRIPTION_MAX - 1)}…` : line,
      });
      return status.id;
    },
    async summary(body) {
      const self = await input.self();
      const text = `${SUMMARY_MARKER}\n${body}`;
      const earlier = (await listNotes(api, mr)).find(
        (n) => n.author?.username === self && n.body.startsWith(SUMMARY_MARKER),
      );
      if (earlier === undefined) await api.post(`${mr}/notes`, { body: text });
      else await api.put(`${mr}/notes/${earlier.id}`, { body: text });
    },
  };
}
