// What a real server process logs about the requests it serves: every request is one access-log
// line, and no credential a client sends ever reaches the log, in either log format — the
// METRICS_TOKEN bearer, Basic credentials, proxy credentials, cookies, and credential-looking
// query parameters. The dashboard's own Basic credentials are checked in app-dashboard.test.ts.

import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

const SECRET = `whsec-logcred-${process.pid}-${Date.now()}`; // never under 16 characters, whatever the pid
const METRICS_TOKEN = `metrics-token-${crypto.randomBytes(12).toString("hex")}`;
/** A fresh value per credential, so a leak names which one leaked. */
const secret = (name: string) => `${name}-${crypto.randomBytes(9).toString("hex")}`;

let github: FakeGitHub;
const started: LoupeProcess[] = [];

beforeAll(async () => {
  github = await startFakeGitHub();
}, 60_000);

afterAll(async () => {
  for (const loupe of started) await loupe.stop();
  await github?.stop();
});

describe.each(["json", "pretty"])("the log (LOG_FORMAT=%s)", (format) => {
  let loupe: LoupeProcess;

  beforeAll(async () => {
    loupe = await startLoupeProcess({
      command: "node",
      env: fakeWorldEnv({
        github,
        providerBaseURL: "http://127.0.0.1:9/v1",
        webhookSecret: SECRET,
        apiKey: "test-key-logcred",
        extra: { METRICS_TOKEN, LOG_FORMAT: format, LOG_LEVEL: "debug" },
      }),
    });
    started.push(loupe);
  }, 60_000);

  it("has a line for every request and none of the credentials sent with them", async () => {
    const sent: string[] = [METRICS_TOKEN];
    const metrics = await fetch(`${loupe.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(metrics.status).toBe(200);
    const basic = Buffer.from(`ops:${secret("basic-password")}`).toString("base64");
    const cookie = secret("cookie");
    const proxy = secret("proxy");
    sent.push(basic, cookie, proxy);
    await fetch(`${loupe.url}/queues`, {
      headers: { authorization: `Basic ${basic}`, cookie: `session=${cookie}`, "proxy-authorization": proxy },
    });
    const query = [
      "token",
      "access_token",
      "code",
      "state",
      "signature",
      "password",
      "client_secret",
      "api_key",
    ];
    const values = query.map((name) => secret(name.replace("_", "-")));
    sent.push(...values);
    const search = query.map((name, i) => `${name}=${values[i]}`).join("&");
    await fetch(`${loupe.url}/healthz?${search}&page=2`);
    const webhookToken = secret("webhook-token");
    sent.push(webhookToken);
    const ping = { zen: "Keep it logically awesome.", hook_id: 1, hook: { type: "App", id: 1 } };
    const delivered = await deliverWebhook({
      url: `${loupe.webhookUrl}?token=${webhookToken}`,
      event: "ping",
      payload: ping,
      secret: SECRET,
    });
    expect(delivered.status).toBe(200);

    const output = await loupe.until(() => {
      const text = loupe.output();
      return text.includes("/healthz?") && text.includes("/api/github/webhooks?") ? text : undefined;
    }, "the access log lines");
    await loupe.until(() => (loupe.output().includes("/queues") ? true : undefined), "the /queues line");
    for (const credential of sent) expect(loupe.output().includes(credential) ? credential : null).toBeNull();
    expect(output).toContain("/metrics");
    expect(output).toContain("token=[REDACTED]");
    expect(output).toContain("page=2"); // an ordinary parameter is kept
    expect(output).not.toContain(SECRET);
  });
});
