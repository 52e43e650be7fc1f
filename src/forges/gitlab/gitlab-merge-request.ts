// Pure mapping of a GitLab merge request event (X-Gitlab-Event: Merge Request Hook) to a review
// request or a skip, the way GitHub's pull_request events are mapped: opened, reopened, updated
// with new commits (GitLab then sends `oldrev`), and marked ready (the draft flag going from true
// to false). Every other update (a title, a label, an approval) is a skip. The payload is read
// defensively: a field GitLab left out is a clear skip, never a crash. The delivery's identity is
// gitlab-delivery-key.ts's name of the event, so a second delivery of it is recognised.

import type {
  AskedReview,
  GitLabTag,
  MappedEvent,
  ReviewRequest,
  SkippedEvent,
  SkipReason,
} from "../../domain/review-request.ts";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (typeof v === "object" && v !== null ? (v as Json) : null);
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const SHA = /^[0-9a-f]{40}$/;

function skip(reason: SkipReason, message: string): SkippedEvent {
  return { kind: "skip", reason, message };
}

export interface GitLabDelivery {
  /** X-Gitlab-Event, e.g. "Merge Request Hook". */
  readonly event: string;
  readonly deliveryId: string;
  readonly payload: unknown;
}

export function gitLabReviewRequest(delivery: GitLabDelivery): MappedEvent {
  const payload = obj(delivery.payload);
  if (delivery.event !== "Merge Request Hook" || payload?.object_kind !== "merge_request")
    return skip("unsupported_event", `GitLab's ${delivery.event} is not reviewed.`);
  const attributes = obj(payload.object_attributes);
  const path = str(obj(payload.project)?.path_with_namespace);
  const iid = attributes?.iid;
  const head = str(obj(attributes?.last_commit)?.id);
  if (attributes === null || path === null || !path.includes("/") || typeof iid !== "number")
    return skip("unsupported_event", "The event names no merge request.");
  if (attributes.state !== "opened")
    return skip("pull_request_closed", `Merge request !${iid} is ${String(attributes.state)}.`);
  if (head === null || !SHA.test(head))
    return skip("no_pull_request", `Merge request !${iid} names no head commit.`);
  const trigger = triggerOf(str(attributes.action), attributes, obj(payload.changes));
  if (trigger === null)
    return skip(
      "unknown_action",
      `An update of !${iid} with no new commits and no draft change is not reviewed.`,
    );
  const slash = path.lastIndexOf("/");
  const request: AskedReview & GitLabTag = {
    owner: path.slice(0, slash),
    repo: path.slice(slash + 1),
    pullNumber: iid,
    headSha: head,
    deliveryId: delivery.deliveryId,
    trigger,
    rerun: false,
    // The host reads the merge request itself: the author's membership is not in the event.
    pullRequest: null,
    forge: "gitlab",
  };
  return { kind: "review", requests: [request] };
}

function triggerOf(
  action: string | null,
  attributes: Json,
  changes: Json | null,
): ReviewRequest["trigger"] | null {
  if (action === "open") return "merge_request.opened";
  if (action === "reopen") return "merge_request.reopened";
  if (action !== "update") return null;
  if (str(attributes.oldrev) !== null) return "merge_request.updated";
  const draft = obj(changes?.draft);
  if (draft?.previous === true && draft.current === false) return "merge_request.ready";
  return null;
}
