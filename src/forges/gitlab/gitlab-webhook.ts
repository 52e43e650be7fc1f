// GitLab's webhooks, on their own path of the App's server (/api/gitlab/webhooks): the secret
// GitLab sends in X-Gitlab-Token compared in constant time (digests of equal length, so neither
// the secret's length nor a prefix leaks), the body bounded as GitHub's is, the event mapped
// (gitlab-merge-request.ts, pure) and handed to the same review queue; a note event goes
// to the conversation (gitlab-comment-handler.ts). The answer is 200 once the queue has
// taken it; a queue that cannot take it answers 503, so GitLab retries.

import crypto from "node:crypto";
import type http from "node:http";
import { declaredLength, readBoundedBody } from "../../http/webhook-body.ts";
import { MAX_WEBHOOK_BYTES } from "../../http/webhook-guard.ts";
import type { ReviewQueue } from "../../jobs/review-queue.ts";
import type { Metrics } from "../../metrics/metrics.ts";
import { type GitLabDelivery, gitLabReviewRequest } from "./gitlab-merge-request.ts";

export const GITLAB_WEBHOOK_PATH = "/api/gitlab/webhooks";

export interface GitLabWebhookOptions {
  readonly secret: string;
  readonly queue: () => ReviewQueue;
  /** Note events (commands, replies in Loupe's discussions): their outcome, or a throw for a 503. */
  readonly notes?: (delivery: GitLabDelivery) => Promise<string>;
  readonly metrics: Metrics;
  readonly log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  readonly maxBytes?: number;
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

export function createGitLabWebhook(options: GitLabWebhookOptions) {
  const maxBytes = options.maxBytes ?? MAX_WEBHOOK_BYTES;
  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> => {
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
    let payload: unknown;
    try {
      payload = JSON.parse(read.bytes.toString("utf8"));
    } catch {
      return answer(res, 400, { error: "The body is not JSON" });
    }
    const event = header(req, "x-gitlab-event") ?? "";
    const deliveryId =
      header(req, "idempotency-key") ?? header(req, "x-gitlab-event-uuid") ?? crypto.randomUUID();
    if (event === "Note Hook" && options.notes !== undefined) {
      const outcome = await options.notes({ event, deliveryId, payload }).catch(() => null);
      if (outcome === null) return answer(res, 503, { error: "The queue cannot take the note now" });
      options.metrics.webhookDelivery("gitlab_note", outcome);
      return answer(res, 200, { outcome });
    }
    const mapped = gitLabReviewRequest({ event, deliveryId, payload });
    const name = event === "Merge Request Hook" ? "gitlab_merge_request" : "gitlab_other";
    if (mapped.kind === "skip") {
      options.metrics.webhookDelivery(name, "skipped");
      return answer(res, 200, { skipped: mapped.reason });
    }
    const outcomes: string[] = [];
    try {
      for (const request of mapped.requests) outcomes.push(await options.queue().enqueue(request));
    } catch {
      return answer(res, 503, { error: "The review queue cannot take the event now" });
    }
    options.log.info({ mr: mapped.requests[0]?.pullNumber, outcome: outcomes[0] }, "GitLab review request");
    options.metrics.webhookDelivery(
      name,
      outcomes.includes("queued") ? "queued" : (outcomes[0] ?? "skipped"),
    );
    return answer(res, 200, { outcomes });
  };
}
