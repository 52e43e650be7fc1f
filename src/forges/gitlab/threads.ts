// The port's threads on a GitLab merge request: its diff discussions as review threads, a reply
// added to a discussion (GitLab names a discussion by its id; the port names a thread by its first
// note, so the discussion is found by that note), a discussion resolved, and Loupe's own
// discussions whose finding no longer applies resolved after a review by the same rule as GitHub's.

import { fileChanges } from "../../conversation/file-changes.ts";
import { selectResolvable } from "../../conversation/select-resolvable.ts";
import type { HostThreads } from "../../host/pull-request-host.ts";
import type { GitLabApi } from "./gitlab-api.ts";
import { readThreads } from "./notes.ts";

/** `mr`: the merge request's API path, /projects/:id/merge_requests/:iid. */
export function gitLabThreads(api: GitLabApi, mr: string, self: () => Promise<string>): HostThreads {
  const resolve = async (discussionId: string) => {
    await api.put(`${mr}/discussions/${encodeURIComponent(discussionId)}`, { resolved: true });
  };
  return {
    list: async () => {
      const login = await self();
      return { self: login, threads: await readThreads(api, mr, login) };
    },
    async reply({ rootCommentId, body }) {
      const threads = await readThreads(api, mr, await self());
      const thread = threads.find((t) => t.comments[0]?.databaseId === rootCommentId);
      if (thread === undefined)
        throw new Error(`no discussion of this merge request starts with note ${rootCommentId}`);
      await api.post(`${mr}/discussions/${encodeURIComponent(thread.id)}/notes`, { body });
    },
    resolve,
    async resolveFixed(input) {
      if (!input.hasReviewComments) return { resolved: 0, failed: 0 };
      const login = await self();
      const chosen = selectResolvable({
        threads: await readThreads(api, mr, login),
        botLogin: login,
        raisedAgain: input.raised,
        changes: input.newFiles === null ? null : fileChanges(input.newFiles),
      });
      const results = await Promise.allSettled(chosen.map((thread) => resolve(thread.id)));
      const resolved = results.filter((r) => r.status === "fulfilled").length;
      return { resolved, failed: results.length - resolved };
    },
  };
}
