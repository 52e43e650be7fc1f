// GitLab merge request events as GitLab documents them (the "Merge request events" example of its
// webhook events page), typed against @gitbeaker/core's WebhookMergeRequestEventSchema, with the
// `oldrev` GitLab adds to an update that brought new commits; and their delivery to Loupe's server
// with the headers GitLab sends (X-Gitlab-Event, X-Gitlab-Token, X-Gitlab-Event-UUID).

import { randomUUID } from "node:crypto";
import type { WebhookMergeRequestEventSchema } from "@gitbeaker/core";

type Event = WebhookMergeRequestEventSchema & {
  object_attributes: WebhookMergeRequestEventSchema["object_attributes"] & { oldrev?: string };
};

export interface MergeRequestEventInput {
  readonly project: string;
  readonly iid: number;
  readonly headSha: string;
  readonly action: "open" | "reopen" | "update" | "close" | "merge";
  readonly state?: "opened" | "closed" | "merged";
  readonly oldrev?: string;
  readonly draft?: { previous: boolean; current: boolean };
}

export function mergeRequestEvent(input: MergeRequestEventInput): Event {
  const projectUrl = `http://gitlab.invalid/${input.project}`;
  const project = {
    id: 1,
    name: input.project.split("/").at(-1)!,
    description: "",
    web_url: projectUrl,
    avatar_url: null,
    git_ssh_url: `git@gitlab.invalid:${input.project}.git`,
    git_http_url: `${projectUrl}.git`,
    namespace: input.project.split("/").slice(0, -1).join("/"),
    visibility_level: 20,
    path_with_namespace: input.project,
    default_branch: "main",
    homepage: projectUrl,
    url: `git@gitlab.invalid:${input.project}.git`,
    ssh_url: `git@gitlab.invalid:${input.project}.git`,
    http_url: `${projectUrl}.git`,
  };
  const user = {
    id: 2,
    name: "Dev",
    username: "dev",
    state: "active",
    avatar_url: "",
    web_url: "http://gitlab.invalid/dev",
  };
  const none = { previous: null, current: null };
  return {
    object_kind: "merge_request",
    event_type: "merge_request",
    event_name: "merge_request",
    user,
    project,
    repository: {
      name: project.name,
      url: project.url,
      description: "",
      homepage: projectUrl,
    } as Event["repository"],
    object_attributes: {
      id: 99,
      iid: input.iid,
      target_branch: "main",
      source_branch: "change",
      source_project_id: 1,
      author_id: 2,
      assignee_ids: [],
      reviewer_ids: [],
      title: "A change",
      created_at: "2013-12-03T17:23:34Z",
      updated_at: "2013-12-03T17:23:34Z",
      last_edited_at: "2013-12-03T17:23:34Z",
      last_edited_by_id: 2,
      milestone_id: null,
      state_id: 1,
      state: input.state ?? "opened",
      blocking_discussions_resolved: true,
      work_in_progress: input.draft?.current ?? false,
      draft: input.draft?.current ?? false,
      first_contribution: false,
      merge_commit_sha: "",
      target_project_id: 1,
      description: "",
      total_time_spent: 0,
      time_change: 0,
      human_total_time_spent: "",
      human_time_change: "",
      human_time_estimate: "",
      url: `${projectUrl}/-/merge_requests/${input.iid}`,
      source: project,
      target: project,
      last_commit: {
        id: input.headSha,
        message: "A change",
        title: "A change",
        timestamp: "2013-12-03T17:23:34Z",
        url: `${projectUrl}/-/commit/${input.headSha}`,
        author: { name: "Dev", email: "dev@example.invalid" },
      },
      labels: [],
      action: input.action,
      detailed_merge_status: "mergeable",
      ...(input.oldrev === undefined ? {} : { oldrev: input.oldrev }),
    },
    labels: [],
    changes: {
      target_branch: none,
      updated_by_id: none,
      draft: input.draft ?? none,
      updated_at: none,
      assignees: none,
      reviewers: none,
      labels: none,
      last_edited_at: none,
      last_edited_by_id: none,
    },
    assignees: [],
    reviewers: [],
  };
}

/** POSTs an event to Loupe's GitLab webhook as GitLab does; the answer's status. */
export async function deliverGitLabEvent(
  url: string,
  secret: string,
  event: unknown,
  options: { readonly uuid?: string; readonly eventHeader?: string } = {},
): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Gitlab-Event": options.eventHeader ?? "Merge Request Hook",
      "X-Gitlab-Token": secret,
      "X-Gitlab-Event-UUID": options.uuid ?? randomUUID(),
      "User-Agent": "GitLab/17.0.0",
    },
    body: JSON.stringify(event),
  });
  await response.arrayBuffer();
  return response.status;
}
