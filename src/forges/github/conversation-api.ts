// The GitHub calls of the conversation, on the installation's Octokit: the permission check, the
// 👀 acknowledgement, comments and replies, and the reads a command needs. Kept in one adapter so
// the command handler stays pure over an interface and its tests can swap nothing but GitHub.

import type { ConversationApi } from "../../conversation/conversation-api.ts";
import { PAUSE_LABEL } from "../../conversation/pause-state.ts";
import { canWrite } from "../../conversation/permission.ts";
import { type GitHubClient, httpStatus, type RepoRef } from "./octokit.ts";
import { GITHUB_WORDS } from "./words.ts";

export function createConversationApi(octokit: GitHubClient, ref: RepoRef): ConversationApi {
  const { owner, repo } = ref;
  return {
    words: GITHUB_WORDS,
    async canWrite(login) {
      try {
        const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
          owner,
          repo,
          username: login,
        });
        return canWrite({ permission: data.permission, role_name: data.role_name });
      } catch (error) {
        // 404: not a collaborator (or not a user at all). Anything else is not a yes either.
        if (httpStatus(error) === 404) return false;
        throw error;
      }
    },
    async acknowledge(source, commentId) {
      if (source === "issue_comment") {
        await octokit.rest.reactions.createForIssueComment({
          owner,
          repo,
          comment_id: commentId,
          content: "eyes",
        });
      } else {
        await octokit.rest.reactions.createForPullRequestReviewComment({
          owner,
          repo,
          comment_id: commentId,
          content: "eyes",
        });
      }
    },
    async postComment(pullNumber, body) {
      await octokit.rest.issues.createComment({ owner, repo, issue_number: pullNumber, body });
    },
    async pullHead(pullNumber) {
      const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: pullNumber });
      return { headSha: data.head.sha, open: data.state === "open" };
    },
    async reviewComment(commentId) {
      try {
        const { data } = await octokit.rest.pulls.getReviewComment({ owner, repo, comment_id: commentId });
        return {
          id: data.id,
          body: data.body,
          login: data.user?.login ?? null,
          type: data.user?.type ?? null,
        };
      } catch (error) {
        if (httpStatus(error) === 404) return null;
        throw error;
      }
    },
    async setPaused(pullNumber, paused) {
      if (paused) {
        // GitHub creates the label on first use.
        await octokit.rest.issues.addLabels({ owner, repo, issue_number: pullNumber, labels: [PAUSE_LABEL] });
        return;
      }
      try {
        await octokit.rest.issues.removeLabel({ owner, repo, issue_number: pullNumber, name: PAUSE_LABEL });
      } catch (error) {
        if (httpStatus(error) !== 404) throw error; // 404: it was not paused
      }
    },
  };
}
