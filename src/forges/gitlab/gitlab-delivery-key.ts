// Which GitLab deliveries are the same event, so an event GitLab sends again (a manual resend, a
// retry after a timeout on an older release) is handled once. GitLab's `Idempotency-Key` names an
// event and is kept by its retries and resends (newer releases, app/services/web_hook_service.rb);
// without it the payload names the event: a merge request event by its project, merge request,
// action, head commit and previous head (`oldrev`, sent only for a push); a note event by its note
// and action. Never `X-Gitlab-Event-UUID`: GitLab makes a new one for every attempt, and gives the
// same one to unrelated hooks fired by one request (it detects recursion, it names no delivery).
// Any other event is named by the digest of its body.

import { createHash } from "node:crypto";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (typeof v === "object" && v !== null ? (v as Json) : null);
const part = (v: unknown): string => (typeof v === "string" || typeof v === "number" ? String(v) : "");

/** GitLab's events about notes: internal (confidential) notes arrive under their own name. */
export const GITLAB_NOTE_EVENTS: readonly string[] = ["Note Hook", "Confidential Note Hook"];

export interface GitLabDeliveryHeaders {
  /** X-Gitlab-Event. */
  readonly event: string;
  /** Idempotency-Key, when GitLab sent one. */
  readonly idempotencyKey: string | undefined;
}

export function gitLabDeliveryKey(headers: GitLabDeliveryHeaders, payload: unknown, body: string): string {
  if (headers.idempotencyKey !== undefined && headers.idempotencyKey.trim() !== "")
    return `gitlab:key:${headers.idempotencyKey.trim()}`;
  const event = obj(payload);
  const project = obj(event?.project);
  const where = part(project?.id) || part(project?.path_with_namespace) || part(event?.project_id);
  const attributes = obj(event?.object_attributes);
  if (event?.object_kind === "merge_request" && attributes !== null && where !== "")
    return [
      "gitlab:mr",
      where,
      part(attributes.iid),
      part(attributes.action),
      part(obj(attributes.last_commit)?.id),
      part(attributes.oldrev),
    ].join(":");
  if (event?.object_kind === "note" && attributes !== null && part(attributes.id) !== "")
    return ["gitlab:note", where, part(attributes.id), part(attributes.action) || "create"].join(":");
  return `gitlab:body:${createHash("sha256").update(headers.event).update("\n").update(body).digest("hex")}`;
}
