// What Probot's error handlers are told about a failed delivery, with the real thing: Probot's own
// webhook middleware on a real HTTP server, a delivery signed with the wrong secret and one whose
// handler throws, each error classified as Loupe counts it.

import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import nock from "nock";
import { Probot } from "probot";
import { deliveryFailure } from "../../../../src/forges/github/webhooks/delivery-failure.ts";
import { testPrivateKey } from "../../../support/probot-harness.ts";
import { deliverWebhook } from "../../../support/webhook-delivery.ts";

const SECRET = "whsec-delivery-failure-test";
const errors: unknown[] = [];
let server: http.Server;
let url = "";

beforeAll(async () => {
  nock.enableNetConnect("127.0.0.1");
  const probot = new Probot({ appId: 1, privateKey: testPrivateKey(), secret: SECRET, logLevel: "fatal" });
  await probot.load((app) => {
    app.on("issues.opened", async () => {
      throw new Error("the shared queue cannot take jobs");
    });
    app.onError(async (error) => {
      errors.push(error);
    });
  });
  const middleware = await probot.getNodeMiddleware();
  server = http.createServer((req, res) => void middleware(req, res));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`;
});

afterAll(async () => {
  server.close();
  await once(server, "close");
});

describe("deliveryFailure", () => {
  it("a wrong signature: 400, counted as bad_signature under no event name of the sender's", async () => {
    errors.length = 0;
    const answer = await deliverWebhook({
      url,
      event: "made-up-event-name",
      payload: { action: "opened" },
      secret: "not-the-secret",
    });
    expect(answer.status).toBe(400);
    expect(errors).toHaveLength(1);
    expect(deliveryFailure(errors[0])).toEqual({ event: "unverified", outcome: "bad_signature" });
  });

  it("a handler that throws: a 5xx, counted as failed under the verified event's name", async () => {
    errors.length = 0;
    const answer = await deliverWebhook({
      url,
      event: "issues",
      payload: { action: "opened", installation: { id: 1 } },
      secret: SECRET,
    });
    expect(answer.status).toBeGreaterThanOrEqual(500);
    expect(errors).toHaveLength(1);
    expect(deliveryFailure(errors[0])).toEqual({ event: "issues", outcome: "failed" });
  });

  it("anything else is failed under an unknown event", () => {
    expect(deliveryFailure(new Error("boom"))).toEqual({ event: "unknown", outcome: "failed" });
    expect(deliveryFailure(undefined)).toEqual({ event: "unknown", outcome: "failed" });
  });
});
