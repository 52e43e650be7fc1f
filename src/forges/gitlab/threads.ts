// The port's threads on a GitLab merge request: its diff discussions as review threads, a reply
// added to a discussion (GitLab names a discussion by its id; the port names a thread by its first
// note, so the discussion is found by that note), and a discussion resolved.

import type { HostThreads } from "../../host/pull-request-host.ts";
import type { GitLabApi } from "./gitlab-api.ts";
import { readThreads } from "./notes.ts";

/** `mr`: the merge request's API path, /projects/:id/merge_requests/:iid. */
export function gitLabThreads(api: GitLabApi, mr: string, self: () => Promise<string>): HostThreads {
  return {
    list: async (options) => {
      const login = await self();
      return { self: login, threads: await readThreads(api, mr, login, options) };
    },
    async reply({ rootCommentId, body }) {
      const threads = await readThreads(api, mr, await self());
      const thread = threads.find((t) => t.comments[0]?.databaseId === rootCommentId);
      if (thread === undefined)
        throw new Error(`no discussion of this merge request starts with note ${rootCommentId}`);
      await api.post(`${mr}/discussions/${encodeURIComponent(thread.id)}/notes`, { body });
    },
    resolve: async (discussionId) => {
      await api.put(`${mr}/discussions/${encodeURIComponent(discussionId)}`, { resolved: true });
    },
  };
}
