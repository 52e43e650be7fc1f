// GitLab's webhooks, on their own path of the App's server (/api/gitlab/webhooks). GitLab never
// delivers an event again by itself, counts a non-2xx or a wait past its timeout (10 s by default)
// as a failure, and disables a project hook from the fourth failure in a row
// (app/models/concerns/web_hooks/auto_disabling.rb): so the route answers 200 as soon as the
// secret is checked and the body parsed, before any GitLab call, and never answers 5xx to a
// valid event. The secret in X-Gitlab-Token is compared in constant time (digests of equal
// length, so neither its length nor a prefix leaks); the body is bounded as GitHub's is.
//
// After the answer: the event is named (gitlab-delivery-key.ts) and handled once; a
// merge request event is mapped (gitlab-merge-request.ts, pure) and handed to the review
// queue; a note event goes to the conversation (gitlab-comment-handler.ts, which asks
// GitLab who wrote it). A queue that cannot take the work (Redis away) gets it again when it is
// back (jobs/held-deliveries.ts).

import crypto from "node:crypto";
import type http from "node:http";
import { declaredLength, readBoundedBody } from "../../http/webhook-body.ts";
import { MAX_WEBHOOK_BYTES } from "../../http/webhook-guard.ts";
import { BoundedSet } from "../../jobs/bounded-set.ts";
import { createHeldDeliveries } from "../../jobs/held-deliveries.ts";
import { QueueUnavailableError } from "../../jobs/queue-unavailable.ts";
import type { ReviewQueue } from "../../jobs/review-queue.ts";
import type { Logger } from "../../log/job-logger.ts";
import type { Metrics } from "../../metrics/metrics.ts";
import { GITLAB_NOTE_EVENTS, gitLabDeliveryKey } from "./gitlab-delivery-key.ts";
import { type GitLabDelivery, gitLabReviewRequest } from "./gitlab-merge-request.ts";

export const GITLAB_WEBHOOK_PATH = "/api/gitlab/webhooks";
/** Events this process has taken, remembered so a second delivery of one is not handled again. */
const REMEMBERED_DELIVERIES = 10_000;

export interface GitLabWebhookOptions {
  readonly secret: string;
  readonly queue: () => ReviewQueue;
  /** Note events (commands, replies in Loupe's discussions): their outcome; a queue away throws. */
  readonly notes?: (delivery: GitLabDelivery) => Promise<string>;
  readonly metrics: Metrics;
  readonly log: Logger;
  readonly maxBytes?: number;
  /** How a held delivery waits before it is offered to the queue again (tests give their own). */
  readonly sleep?: (ms: number) => Promise<void>;
}

export interface GitLabWebhook {
  /** The route: true when the request was for it (answered), false to let another route answer. */
  handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean>;
  /** Resolves once every answered delivery is handled (none in hand, none held). */
  idle(): Promise<void>;
  /** Deliveries answered that the queue has not taken yet. */
  held(): number;
  /** On shutdown: stops retrying, names each delivery still held. */
  close(): void;
}

function answer(res: http.ServerResponse, status: number, body: object): true {
  res.writeHead(status, { "content-type": "application/json", connection: "close" });
  res.end(JSON.stringify(body));
  return true;
}

export function tokenMatches(given: string | undefined, secret: string): boolean {
  if (given === undefined) return false;
  const digest = (text: string) => crypto.createHash("sha256").update(text).digest();
  return crypto.timingSafeEqual(digest(given), digest(secret));
}

const header = (req: http.IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return typeof value === "string" ? value : undefined;
};

const metricName = (event: string) =>
  GITLAB_NOTE_EVENTS.includes(event)
    ? "gitlab_note"
    : event === "Merge Request Hook"
      ? "gitlab_merge_request"
      : "gitlab_other";

/** What a log line says of a delivery: its event, project and merge request or note. */
function described(delivery: GitLabDelivery): object {
  const payload = delivery.payload as {
    project?: { path_with_namespace?: unknown };
    object_attributes?: { iid?: unknown; id?: unknown };
    merge_request?: { iid?: unknown };
  } | null;
  const project = payload?.project?.path_with_namespace;
  const mr = payload?.merge_request?.iid ?? payload?.object_attributes?.iid;
  return {
    gitlab_event: delivery.event,
    ...(typeof project === "string" ? { project } : {}),
    ...(typeof mr === "number" ? { mr } : {}),
    ...(GITLAB_NOTE_EVENTS.includes(delivery.event) && typeof payload?.object_attributes?.id === "number"
      ? { note: payload.object_attributes.id }
      : {}),
  };
}

export function createGitLabWebhook(options: GitLabWebhookOptions): GitLabWebhook {
  const maxBytes = options.maxBytes ?? MAX_WEBHOOK_BYTES;
  const seen = new BoundedSet(REMEMBERED_DELIVERIES);

  const handleDelivery = async (delivery: GitLabDelivery): Promise<void> => {
    const name = metricName(delivery.event);
    if (GITLAB_NOTE_EVENTS.includes(delivery.event) && options.notes !== undefined) {
      const outcome = await options.notes(delivery);
      // A note GitLab could not be asked about may be resent by hand: it is not a duplicate then.
      if (outcome === "failed") seen.delete(delivery.deliveryId);
      options.metrics.webhookDelivery(name, outcome);
      return;
    }
    const mapped = gitLabReviewRequest(delivery);
    if (mapped.kind === "skip") {
      options.metrics.webhookDelivery(name, "skipped");
      return;
    }
    const outcomes: string[] = [];
    for (const request of mapped.requests) outcomes.push(await options.queue().enqueue(request));
    options.log.info({ mr: mapped.requests[0]?.pullNumber, outcome: outcomes[0] }, "GitLab review request");
    options.metrics.webhookDelivery(
      name,
      outcomes.includes("queued") ? "queued" : (outcomes[0] ?? "skipped"),
    );
  };

  const inbox = createHeldDeliveries<GitLabDelivery>({
    handle: handleDelivery,
    unavailable: (error) => error instanceof QueueUnavailableError,
    describe: described,
    log: options.log,
    onHeld: (delivery) => options.metrics.webhookDelivery(metricName(delivery.event), "held"),
    ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
  });

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> => {
    if ((req.url ?? "").split("?")[0]?.replace(/(?<=.)\/+$/, "") !== GITLAB_WEBHOOK_PATH) return false;
    if (req.method !== "POST") return answer(res, 404, { error: `Unknown route: ${req.method}` });
    if (!tokenMatches(header(req, "x-gitlab-token"), options.secret)) {
      options.log.warn(
        {},
        "GitLab webhook refused: its X-Gitlab-Token is not GITLAB_WEBHOOK_SECRET (the webhook's secret token)",
      );
      options.metrics.webhookDelivery("unverified", "bad_signature");
      return answer(res, 401, { error: "X-Gitlab-Token does not match" });
    }
    if ((declaredLength(req) ?? 0) > maxBytes) return answer(res, 413, { error: "The body is too large" });
    const read = await readBoundedBody(req, maxBytes);
    if (read.kind === "too_large") return answer(res, 413, { error: "The body is too large" });
    if (read.kind === "aborted") return true;
    const body = read.bytes.toString("utf8");
    let payload: unknown;
    try {
      payload = JSON.parse(body);
    } catch {
      return answer(res, 400, { error: "The body is not JSON" });
    }
    const event = header(req, "x-gitlab-event") ?? "";
    const deliveryId = gitLabDeliveryKey(
      { event, idempotencyKey: header(req, "idempotency-key") },
      payload,
      body,
    );
    if (seen.has(deliveryId)) {
      options.metrics.webhookDelivery(metricName(event), "duplicate_delivery");
      return answer(res, 200, { outcome: "duplicate_delivery" });
    }
    seen.add(deliveryId);
    answer(res, 200, { outcome: "accepted" });
    inbox.take({ event, deliveryId, payload });
    return true;
  };

  return { handle, idle: () => inbox.idle(), held: () => inbox.held(), close: () => inbox.close() };
}
