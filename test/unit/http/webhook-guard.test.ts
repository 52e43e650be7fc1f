// The guard in front of Probot's webhook middleware, on a real HTTP server with a small cap: what
// it refuses (and counts) without ever handing the request on, and what reaches the middleware:
// a signed body, already read, as the string Probot's middleware takes instead of the stream.

import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createWebhookGuard, type WebhookRefusal } from "../../../src/http/webhook-guard.ts";
import { sendOversized } from "../../support/oversized-request.ts";
import { deliverWebhook, signWebhookBody } from "../../support/webhook-delivery.ts";

const SECRET = "whsec-guard-test";
const MAX = 64 * 1024;
const refused: WebhookRefusal[] = [];
const warnings: string[] = [];
const handedOn: string[] = [];
let server: http.Server;
let url = "";

beforeAll(async () => {
  const guard = createWebhookGuard({
    path: "/api/github/webhooks",
    secret: SECRET,
    maxBytes: MAX,
    log: { warn: (_obj, msg) => warnings.push(msg) },
    onRefused: (reason) => refused.push(reason),
    next: (req, res) => {
      handedOn.push((req as http.IncomingMessage & { body?: string }).body ?? "<stream>");
      res.writeHead(200).end("ok\n");
    },
  });
  server = http.createServer((req, res) => {
    void guard(req, res).then((handled) => {
      if (!handled) res.writeHead(404).end();
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, "close");
});

const reset = () => {
  refused.length = 0;
  warnings.length = 0;
  handedOn.length = 0;
};

describe("the webhook guard", () => {
  it("hands a signed delivery on with its body read", async () => {
    reset();
    const payload = { zen: "Approachable is better than simple.", hook_id: 1 };
    const answer = await deliverWebhook({ url: `${url}/`, event: "ping", payload, secret: SECRET });
    expect(answer.status).toBe(200);
    expect(handedOn).toEqual([JSON.stringify(payload)]);
    expect(refused).toEqual([]);
  });

  it("refuses a wrong or missing signature 400, counted, with a line that names WEBHOOK_SECRET", async () => {
    reset();
    const wrong = await deliverWebhook({ url, event: "ping", payload: { a: 1 }, secret: "other" });
    expect(wrong.status).toBe(400);
    const missing = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-github-event": "ping", "x-github-delivery": "d1" },
      body: "{}",
    });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("x-hub-signature-256");
    expect(refused).toEqual(["bad_signature", "bad_signature"]);
    expect(warnings).toHaveLength(2);
    for (const warning of warnings) expect(warning).toContain("WEBHOOK_SECRET");
    expect(handedOn).toEqual([]);
  });

  it.each([false, true])(
    "refuses a body over the cap with 413 (chunked: %s), never handing it on",
    async (chunked) => {
      reset();
      const body = Buffer.alloc(4 * MAX, "{");
      const result = await sendOversized({
        url,
        headers: {
          "content-type": "application/json",
          "x-github-event": "ping",
          "x-github-delivery": "d2",
          "x-hub-signature-256": signWebhookBody(body.toString(), SECRET),
        },
        bodyBytes: body.length,
        chunked,
        chunk: body.subarray(0, 1024),
      });
      expect(result.status).toBe(413);
      expect(refused).toEqual(["too_large"]);
      expect(handedOn).toEqual([]);
    },
  );

  it("answers other methods and content types itself, and leaves other paths alone", async () => {
    reset();
    expect((await fetch(url)).status).toBe(404);
    const text = await fetch(url, { method: "POST", headers: { "content-type": "text/plain" }, body: "x" });
    expect(text.status).toBe(415);
    expect((await fetch(`${url}x`, { method: "POST" })).status).toBe(404);
    expect(handedOn).toEqual([]);
    expect(refused).toEqual([]);
  });
});
