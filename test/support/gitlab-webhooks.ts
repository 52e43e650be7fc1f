// GitLab merge request events as GitLab documents them (the "Merge request events" example of its
// webhook events page), typed against @gitbeaker/core's WebhookMergeRequestEventSchema, with the
// `oldrev` GitLab adds to an update that brought new commits; and their delivery to Loupe's server
// with the headers GitLab sends (X-Gitlab-Event, X-Gitlab-Token, X-Gitlab-Event-UUID).

import { randomUUID } from "node:crypto";
import type { WebhookMergeRequestEventSchema, WebhookMergeRequestNoteEventSchema } from "@gitbeaker/core";

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

type NoteEvent = WebhookMergeRequestNoteEventSchema & {
  object_attributes: WebhookMergeRequestNoteEventSchema["object_attributes"] & {
    type: "DiffNote" | "DiscussionNote" | null;
    action?: "create" | "update";
  };
};

export interface NoteEventInput {
  readonly project: string;
  readonly iid: number;
  readonly headSha: string;
  readonly note: {
    readonly id: number;
    readonly body: string;
    readonly author: string;
    readonly discussionId: string;
    readonly type: "DiffNote" | "DiscussionNote" | null;
  };
  readonly action?: "create" | "update";
  /** The note is by the merge request's author (GitLab then gives the note's user the author's id). */
  readonly byMergeRequestAuthor?: boolean;
}

/** A comment on a merge request, as GitLab's "Comment events" example shows it (Note Hook). */
export function noteEvent(input: NoteEventInput): NoteEvent {
  const mr = mergeRequestEvent({
    project: input.project,
    iid: input.iid,
    headSha: input.headSha,
    action: "update",
  });
  const attributes = mr.object_attributes;
  const url = `${attributes.url}#note_${input.note.id}`;
  return {
    object_kind: "note",
    event_type: "note",
    event_name: "note",
    user: {
      ...mr.user,
      id: input.byMergeRequestAuthor === true ? mr.object_attributes.author_id : 50,
      name: input.note.author,
      username: input.note.author,
    },
    project_id: 1,
    project: mr.project,
    repository: mr.repository,
    object_attributes: {
      id: input.note.id,
      note: input.note.body,
      noteable_type: "MergeRequest",
      discussion_id: input.note.discussionId,
      type: input.note.type,
      author_id: 50,
      created_at: "2015-05-17 18:21:36 UTC",
      updated_at: "2015-05-17 18:21:36 UTC",
      project_id: 1,
      attachment: null,
      line_code: "",
      commit_id: "",
      noteable_id: "99",
      system: false,
      st_diff: null,
      url,
      ...(input.action === undefined ? {} : { action: input.action }),
    },
    merge_request: {
      id: 99,
      target_branch: attributes.target_branch,
      source_branch: attributes.source_branch,
      source_project_id: 1,
      author_id: 2,
      assignee_id: 0,
      title: attributes.title,
      created_at: attributes.created_at,
      updated_at: attributes.updated_at,
      milestone_id: 0,
      state: "opened",
      merge_status: "can_be_merged",
      target_project_id: 1,
      iid: input.iid,
      description: "",
      position: 0,
      labels: null,
      source: mr.project,
      target: mr.project,
      last_commit: attributes.last_commit,
      work_in_progress: false,
      draft: false,
      assignee: null,
      detailed_merge_status: "mergeable",
    },
  };
}

/**
 * One project hook as GitLab runs it, with GitLab's own rules, so a test sees what a real
 * instance would make of Loupe's answers:
 * - one attempt per event, never delivered again by itself (app/services/web_hook_service.rb:
 *   `execute` makes one request, logs a failed answer and rescues the HTTP errors, so its worker
 *   has nothing to retry); `resend` is the "Resend request" button of the hook's recent events;
 * - a new `X-Gitlab-Event-UUID` for every attempt, resends included
 *   (lib/gitlab/web_hooks/recursion_detection.rb: a UUID per request GitLab handles), while
 *   `Idempotency-Key` names the event and is kept by resends (app/services/web_hook_service.rb);
 * - a non-2xx/3xx answer or no answer within the timeout is a failure, a success resets the
 *   count (app/services/web_hooks/log_execution_service.rb: `backoff!` or `enable!`);
 * - from the 4th failure in a row the hook is disabled (recent_failures above
 *   TEMPORARILY_DISABLED_FAILURE_THRESHOLD = 3, app/models/concerns/web_hooks/auto_disabling.rb)
 *   and sends nothing until it is enabled again.
 */
export interface FakeGitLabHook {
  /** What GitLab made of one attempt: the answer's status, "timeout", "error", or "disabled". */
  deliver(event: unknown, eventHeader?: string): Promise<GitLabAttempt>;
  /** The hook's "Resend request" for an earlier attempt: same event and Idempotency-Key. */
  resend(attempt: GitLabAttempt): Promise<GitLabAttempt>;
  readonly recentFailures: () => number;
  readonly disabled: () => boolean;
  readonly attempts: readonly GitLabAttempt[];
}

export interface GitLabAttempt {
  readonly result: number | "timeout" | "error" | "disabled";
  readonly eventUuid: string | null;
  readonly idempotencyKey: string;
  readonly event: unknown;
  readonly eventHeader: string;
}

export function fakeGitLabHook(options: {
  readonly url: string;
  readonly secret: string;
  /** Older releases send no Idempotency-Key (it came with ≈17.x). */
  readonly idempotencyKey?: boolean;
  /** GitLab's webhook timeout (gitlab.yml webhook_timeout, 10 s by default). */
  readonly timeoutMs?: number;
}): FakeGitLabHook {
  let recentFailures = 0;
  const attempts: GitLabAttempt[] = [];
  const disabled = () => recentFailures > 3;
  const attempt = async (
    event: unknown,
    eventHeader: string,
    idempotencyKey: string,
  ): Promise<GitLabAttempt> => {
    if (disabled()) {
      const skipped = { result: "disabled", eventUuid: null, idempotencyKey, event, eventHeader } as const;
      attempts.push(skipped);
      return skipped;
    }
    const eventUuid = randomUUID();
    let result: GitLabAttempt["result"];
    try {
      const response = await fetch(options.url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "User-Agent": "GitLab/17.6.0",
          "X-Gitlab-Event": eventHeader,
          "X-Gitlab-Token": options.secret,
          "X-Gitlab-Event-UUID": eventUuid,
          "X-Gitlab-Webhook-UUID": randomUUID(),
          "X-Gitlab-Instance": "http://gitlab.invalid",
          ...(options.idempotencyKey === false ? {} : { "Idempotency-Key": idempotencyKey }),
        },
        body: JSON.stringify(event),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      await response.arrayBuffer();
      result = response.status;
    } catch (error) {
      result = (error as Error).name === "TimeoutError" ? "timeout" : "error";
    }
    const ok = typeof result === "number" && result >= 200 && result < 400;
    recentFailures = ok ? 0 : recentFailures + 1;
    const made = { result, eventUuid, idempotencyKey, event, eventHeader };
    attempts.push(made);
    return made;
  };
  return {
    deliver: (event, eventHeader = "Merge Request Hook") => attempt(event, eventHeader, randomUUID()),
    resend: (earlier) => attempt(earlier.event, earlier.eventHeader, earlier.idempotencyKey),
    recentFailures: () => recentFailures,
    disabled,
    attempts,
  };
}
