// Delivers a webhook to a running App over HTTP exactly as GitHub does: the raw JSON body, signed
// with HMAC-SHA256 of those bytes under the webhook secret (`X-Hub-Signature-256: sha256=<hex>`),
// a fresh delivery GUID, the event name, `Content-Type: application/json`. Returns the answer and
// how long the App took to give it (the ack latency GitHub's 10 s timeout applies to).

import crypto from "node:crypto";
import http from "node:http";

export interface WebhookDelivery {
  /** e.g. http://127.0.0.1:3000/api/github/webhooks */
  readonly url: string;
  readonly event: string;
  readonly payload: unknown;
  readonly secret: string;
  /** Default: a fresh uuid. Reuse one to simulate a redelivery. */
  readonly deliveryId?: string;
  /** Replace the signature (to test a forged delivery). */
  readonly signature?: string;
  /** A keep-alive agent for many deliveries; default a fresh connection each. */
  readonly agent?: http.Agent;
}

export interface DeliveryResult {
  readonly status: number;
  readonly body: string;
  readonly deliveryId: string;
  /** From the first byte sent to the whole answer read, in milliseconds. */
  readonly latencyMs: number;
}

/** `sha256=<hex>` for the body, as GitHub signs it. */
export function signWebhookBody(body: string, secret: string): string {
  return `sha256=${crypto.createHmac("sha256", secret).update(body, "utf8").digest("hex")}`;
}

export function deliverWebhook(delivery: WebhookDelivery): Promise<DeliveryResult> {
  const body = JSON.stringify(delivery.payload);
  const deliveryId = delivery.deliveryId ?? crypto.randomUUID();
  const target = new URL(delivery.url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: "POST",
        // No agent means a connection of its own, as GitHub opens one per delivery. Node's global
        // agent keeps connections alive since Node 19, and reusing one the server is closing at
        // its keep-alive timeout (5 s, about one review apart) failed a delivery with "socket hang up".
        agent: delivery.agent ?? false,
        headers: {
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(body),
          "User-Agent": "GitHub-Hookshot/loupe-test",
          Accept: "*/*",
          "X-GitHub-Event": delivery.event,
          "X-GitHub-Delivery": deliveryId,
          "X-GitHub-Hook-ID": "1",
          "X-GitHub-Hook-Installation-Target-Type": "integration",
          "X-Hub-Signature-256": delivery.signature ?? signWebhookBody(body, delivery.secret),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            deliveryId,
            latencyMs: performance.now() - started,
          }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}
