// A merge request read from GitLab, in the port's words: its head and the target branch's commit
// from `diff_refs` (GitLab's own diff is from base_sha, the merge-base, to head_sha), its author's
// membership of the project as the role the author policy reads, and its state.

import type { AuthorRole } from "../../domain/author-role.ts";
import type { PullRequest } from "../../domain/pull-request.ts";
import type { PullRequestRef } from "../../domain/review-request.ts";
import { type GitLabApi, gitLabStatus, projectId } from "./gitlab-api.ts";

/** A merge request: owner is the project's namespace path (a group may nest), repo its path. */
export type GitLabTarget = PullRequestRef;

export function projectPath(target: Pick<PullRequestRef, "owner" | "repo">): string {
  return `${target.owner}/${target.repo}`;
}

export interface DiffRefs {
  readonly base_sha: string;
  readonly start_sha: string;
  readonly head_sha: string;
}

/** The fields of GET /projects/:id/merge_requests/:iid that Loupe reads. */
export interface MergeRequestAnswer {
  readonly iid: number;
  readonly title: string;
  readonly description: string | null;
  readonly state: string;
  readonly draft?: boolean;
  readonly work_in_progress?: boolean;
  readonly web_url: string;
  readonly sha: string;
  readonly labels: readonly string[];
  readonly author: { readonly id: number; readonly username: string } | null;
  /** null while GitLab is still preparing the merge request's diff. */
  readonly diff_refs: DiffRefs | null;
  /** How many files its diff lists, "1000+" (any "N+") when GitLab cut the diff at its limits. */
  readonly changes_count?: string | null;
  readonly source_branch?: string;
  readonly source_project_id?: number;
  readonly target_project_id?: number;
}

/** Where GitLab keeps a merge request's head in the target project, a fork's included. */
export function mergeRequestHeadRef(iid: number): string {
  return `refs/merge-requests/${iid}/head`;
}

/** GitLab's access levels (members API): Developer and above may push. */
export const DEVELOPER_ACCESS = 30;
const OWNER_ACCESS = 50;

/** Project and group access tokens act as bot users named project_<id>_bot… or group_<id>_bot…. */
export const BOT_USERNAME = /^(project|group)_\d+_bot/;

export interface ReadMergeRequest {
  readonly pullRequest: PullRequest;
  readonly diffRefs: DiffRefs;
  /**
   * The `ref` of the head's commit status: the source branch, or for a fork (whose branch is in
   * another project) the merge request's head ref. Without one GitLab looks for a branch holding
   * the commit and answers 404 "References for commit" for a fork's head
   * (app/services/ci/create_commit_status_service.rb).
   */
  readonly statusRef: string;
}

export async function readMergeRequest(api: GitLabApi, target: GitLabTarget): Promise<ReadMergeRequest> {
  const id = projectId(projectPath(target));
  const mr = await api.get<MergeRequestAnswer>(`/projects/${id}/merge_requests/${target.pullNumber}`);
  if (mr.diff_refs === null)
    throw new Error(`GitLab has not prepared the diff of !${mr.iid} yet (no diff_refs); try again`);
  const role = mr.author === null ? "none" : await membership(api, id, mr.author.id);
  const fork =
    mr.source_project_id !== undefined &&
    mr.target_project_id !== undefined &&
    mr.source_project_id !== mr.target_project_id;
  return {
    diffRefs: mr.diff_refs,
    statusRef:
      fork || mr.source_branch === undefined || mr.source_branch === ""
        ? mergeRequestHeadRef(mr.iid)
        : mr.source_branch,
    pullRequest: {
      number: mr.iid,
      url: mr.web_url,
      title: mr.title,
      body: mr.description === "" ? null : mr.description,
      headSha: mr.diff_refs.head_sha,
      baseSha: mr.diff_refs.start_sha,
      draft: mr.draft === true || mr.work_in_progress === true,
      author: {
        login: mr.author?.username ?? null,
        isBot: BOT_USERNAME.test(mr.author?.username ?? ""),
        role,
      },
      open: mr.state === "opened",
      labels: [...mr.labels],
    },
  };
}

/** The author's membership, inherited ones included, as a role. */
async function membership(api: GitLabApi, id: string, userId: number): Promise<AuthorRole> {
  const level = await accessLevel(api, id, userId);
  if (level === null) return "none";
  return level >= OWNER_ACCESS ? "owner" : "member";
}

export async function accessLevel(api: GitLabApi, id: string, userId: number): Promise<number | null> {
  try {
    const member = await api.get<{ access_level: number }>(`/projects/${id}/members/all/${userId}`);
    return member.access_level;
  } catch (error) {
    if (gitLabStatus(error) === 404) return null;
    throw error;
  }
}

/** Whether a username has Developer access or more to the project. */
export async function canPush(
  api: GitLabApi,
  target: Pick<GitLabTarget, "owner" | "repo">,
  username: string,
): Promise<boolean> {
  const users = await api.get<{ id: number; username: string }[]>("/users", { username });
  const user = users.find((u) => u.username === username);
  if (user === undefined) return false;
  const level = await accessLevel(api, projectId(projectPath(target)), user.id);
  return level !== null && level >= DEVELOPER_ACCESS;
}
