// The conversation's calls on a GitLab merge request, behind the same interface as GitHub's: who
// may make Loupe act (Developer or higher, from the members API, inherited membership included;
// a Reporter may not), the 👀 as an award emoji on the note, notes, the merge request's head, the
// first note of the note's discussion (GitLab's event names the discussion, not the note it
// answers), and the pause label. Loupe's own notes are those of the token's user.

import type { ConversationApi } from "../../conversation/conversation-api.ts";
import { PAUSE_LABEL } from "../../conversation/pause-state.ts";
import { type GitLabApi, gitLabStatus, projectId } from "./gitlab-api.ts";
import { canPush, projectPath } from "./merge-request.ts";
import type { NoteAnswer } from "./notes.ts";
import { gitLabWords } from "./words.ts";

export interface GitLabConversationTarget {
  readonly owner: string;
  readonly repo: string;
  readonly pullNumber: number;
  /** The discussion the note is in. */
  readonly discussionId: string;
  /** The token's own username. */
  readonly self: string;
}

export function gitLabConversationApi(api: GitLabApi, target: GitLabConversationTarget): ConversationApi {
  const mr = `/projects/${projectId(projectPath(target))}/merge_requests/${target.pullNumber}`;
  return {
    words: gitLabWords(target.self),
    canWrite: (login) => canPush(api, target, login),
    async acknowledge(_source, noteId) {
      await api.post(`${mr}/notes/${noteId}/award_emoji`, { name: "eyes" });
    },
    async postComment(_pullNumber, body) {
      await api.post(`${mr}/notes`, { body });
    },
    async pullHead() {
      const found = await api.get<{ sha: string; state: string }>(mr);
      return { headSha: found.sha, open: found.state === "opened" };
    },
    async reviewComment() {
      try {
        const discussion = await api.get<{ notes: readonly NoteAnswer[] }>(
          `${mr}/discussions/${encodeURIComponent(target.discussionId)}`,
        );
        const first = discussion.notes[0];
        if (first === undefined) return null;
        const login = first.author?.username ?? null;
        return { id: first.id, body: first.body, login, type: login === target.self ? "Bot" : "User" };
      } catch (error) {
        if (gitLabStatus(error) === 404) return null;
        throw error;
      }
    },
    async setPaused(_pullNumber, paused) {
      await api.put(mr, paused ? { add_labels: PAUSE_LABEL } : { remove_labels: PAUSE_LABEL });
    },
  };
}
