// WEBHOOK_PROXY_URL for local development: Loupe subscribes to the channel with smee-client (a
// dependency, nothing downloaded at run time) and forwards each delivery to its own webhook path,
// where the signature is still checked. The channel is a local fake of smee.io.

import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { type FakeSmee, startFakeSmee } from "../../support/fake-smee.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import { signWebhookBody } from "../../support/webhook-delivery.ts";

const SECRET = `whsec-proxy-${process.pid}-${Date.now()}`; // never under 16 characters, whatever the pid
let github: FakeGitHub;
let smee: FakeSmee;
let loupe: LoupeProcess;

beforeAll(async () => {
  github = await startFakeGitHub();
  smee = await startFakeSmee();
  loupe = await startLoupeProcess({
    command: "node",
    env: fakeWorldEnv({
      github,
      providerBaseURL: "http://127.0.0.1:9/v1",
      webhookSecret: SECRET,
      apiKey: "test-key-proxy",
      extra: { WEBHOOK_PROXY_URL: smee.url },
    }),
  });
}, 60_000);

afterAll(async () => {
  await loupe?.stop();
  await smee?.stop();
  await github?.stop();
});

async function counted(series: string): Promise<string | undefined> {
  const text = await (await fetch(`${loupe.url}/metrics`)).text();
  return text
    .split("\n")
    .find((line) => line.startsWith(`${series} `))
    ?.split(" ")[1];
}

describe("a WEBHOOK_PROXY_URL channel", () => {
  it("forwards signed deliveries to the App, and the App still refuses forged ones", async () => {
    // The server subscribes right after it starts listening, so /healthz (what startLoupeProcess
    // waited for) can answer a moment before the channel has its subscriber: wait for it.
    await loupe.until(() => (smee.subscribers() > 0 ? true : undefined), "the channel's subscriber");
    expect(smee.subscribers()).toBe(1);
    const payload = { zen: "Design for failure.", hook_id: 1, hook: { type: "App", id: 1 } };
    const delivery = (signature: string) => ({
      headers: {
        "x-github-event": "ping",
        "x-github-delivery": crypto.randomUUID(),
        "x-hub-signature-256": signature,
      },
      body: payload,
    });
    smee.send(delivery(`sha256=${"0".repeat(64)}`));
    smee.send(delivery(signWebhookBody(JSON.stringify(payload), SECRET)));
    const series = 'loupe_webhook_deliveries_total{event="ping",outcome="ignored"}';
    while ((await counted(series)) === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
    // Both deliveries were forwarded (smee-client logs each POST); only the signed one counted.
    while ((loupe.output().match(/POST http:\/\/\S+\/api\/github\/webhooks - /g) ?? []).length < 2) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await counted(series)).toBe("1");
    expect(loupe.output()).toMatch(/POST http:\/\/\S+\/api\/github\/webhooks - 400/);
  });
});
