// The state of the fake GitLab (fake-gitlab.ts): projects with their bare repositories, merge
// requests with diff_refs, notes, draft notes, commit statuses, and the refusals it is told to
// give. Answers are typed against @gitbeaker/core's schemas (the shapes GitLab documents).

import type { CommitStatusSchema } from "@gitbeaker/core";
import type { FakeDiff } from "./fake-gitlab-diffs.ts";

export interface FakeProject {
  readonly id: number;
  readonly path: string;
  readonly gitdir: string;
  readonly defaultBranch: string;
  /** username → access level (10 guest, 20 reporter, 30 developer, 40 maintainer, 50 owner). */
  readonly members: Map<string, number>;
  /** The token user's access level when it is below Developer (a Reporter cannot set statuses). */
  botAccess?: number;
}

export interface FakeMergeRequest {
  readonly projectId: number;
  readonly iid: number;
  title: string;
  description: string;
  state: "opened" | "closed" | "merged";
  draft: boolean;
  readonly sourceBranch: string;
  readonly targetBranch: string;
  /** A fork's merge request: the project its source branch is in. */
  readonly sourceProjectId?: number;
  readonly author: string;
  /** base_sha (the merge-base), start_sha (the target's tip), head_sha. */
  diffRefs: { base_sha: string; start_sha: string; head_sha: string };
  /** The diffs GitLab shows, cut at the instance's limits (cutLikeGitLab). */
  diffs: FakeDiff[];
  /** GitLab cut the diffs: changes_count reads "N+", GET …/changes says overflow. */
  overflow: boolean;
  labels?: string[];
}

export interface FakePosition {
  readonly position_type: string;
  readonly base_sha: string;
  readonly start_sha: string;
  readonly head_sha: string;
  readonly old_path: string;
  readonly new_path: string;
  readonly new_line: number | null;
  readonly old_line: number | null;
  readonly line_range?: unknown;
}

export interface FakeNote {
  readonly id: number;
  readonly projectId: number;
  readonly iid: number;
  body: string;
  type: "DiffNote" | "DiscussionNote" | null;
  readonly system: boolean;
  readonly author: string;
  readonly created_at: string;
  readonly discussionId: string;
  /** Moved to each new diff whose line GitLab can trace unchanged (fake-gitlab-positions.ts). */
  position: FakePosition | null;
  resolved: boolean;
  resolvedBy?: string;
}

/** An award emoji on a note (GET/POST …/notes/:note_id/award_emoji). */
export interface FakeAward {
  readonly id: number;
  readonly noteId: number;
  readonly name: string;
  readonly user: string;
}

export interface FakeDraftNote {
  readonly id: number;
  readonly projectId: number;
  readonly iid: number;
  readonly author: string;
  readonly note: string;
  readonly position: FakePosition | null;
}

export type FakeStatus = Pick<
  CommitStatusSchema,
  "id" | "sha" | "status" | "name" | "description" | "target_url" | "ref"
>;

export interface FakeGitLabState {
  readonly home: string;
  readonly token: string;
  readonly self: { readonly id: number; readonly username: string };
  /** The token's scopes (GET /personal_access_tokens/self). */
  readonly scopes: readonly string[];
  /** "oauth": an OAuth application's token (GET /personal_access_tokens/self refuses it). */
  readonly tokenType: "personal" | "oauth";
  readonly users: Map<string, number>;
  readonly projects: Map<string, FakeProject>;
  readonly mergeRequests: Map<string, FakeMergeRequest>;
  readonly notes: FakeNote[];
  readonly drafts: FakeDraftNote[];
  readonly statuses: FakeStatus[];
  readonly awards: FakeAward[];
  /** Each bulk publish: the draft notes it made visible, in order. */
  readonly publishes: FakeDraftNote[][];
  /** The next bulk publish raises at this draft (1-based), as an error in Notes::CreateService would. */
  failPublishAt: number | null;
  /** The next API requests answered 429 with this Retry-After (seconds). */
  limited: { count: number; retryAfter: number };
  nextId: number;
}

export const NOT_FOUND = { status: 404, body: { message: "404 Not found" } };

export function projectOf(state: FakeGitLabState, id: string): FakeProject | undefined {
  const key = decodeURIComponent(id);
  return state.projects.get(key) ?? [...state.projects.values()].find((p) => String(p.id) === key);
}

export function userId(state: FakeGitLabState, username: string): number {
  let id = state.users.get(username);
  if (id === undefined) {
    id = state.nextId++;
    state.users.set(username, id);
  }
  return id;
}

export function userAnswer(state: FakeGitLabState, username: string) {
  return {
    id: userId(state, username),
    username,
    name: username,
    state: "active",
    avatar_url: "",
    web_url: `http://gitlab.invalid/${username}`,
  };
}
