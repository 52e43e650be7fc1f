// Readiness follows the process's life: ready once the App runs, not ready (503, "shutting down")
// from SIGTERM on while running reviews get their grace period, and alive (/healthz) throughout.
// The queue gauge shows the running review. A real process; the model never answers.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { fakeGitHubTarget, pullRequestEvent } from "../../support/fake-github-payloads.ts";
import { createOneChangeRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import { type ScriptedProvider, startScriptedProvider } from "../../support/scripted-provider.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

const SECRET = `whsec-ready-${process.pid}-${Date.now()}`; // never under 16 characters, whatever the pid
let github: FakeGitHub;
let provider: ScriptedProvider;
let fixture: FixtureRepo;
let loupe: LoupeProcess;

const poll = async (probe: () => Promise<boolean>) => {
  while (!(await probe())) await new Promise((resolve) => setTimeout(resolve, 100));
};

beforeAll(async () => {
  fixture = createOneChangeRepo();
  github = await startFakeGitHub();
  github.addRepository({ owner: "octo", repo: "ready", source: fixture });
  provider = await startScriptedProvider([{ fault: "hang" }]);
  loupe = await startLoupeProcess({
    command: "node",
    env: fakeWorldEnv({
      github,
      providerBaseURL: provider.baseURL,
      webhookSecret: SECRET,
      apiKey: `test-key-ready-${process.pid}`,
      extra: { SHUTDOWN_GRACE_SECONDS: "60" },
    }),
  });
}, 60_000);

afterAll(async () => {
  await loupe?.stop(1000);
  await provider?.stop();
  await github?.stop();
  fixture?.dispose();
});

describe("/readyz over the process's life", () => {
  it("is 200 while running, 503 'shutting down' after SIGTERM while a review finishes", async () => {
    expect((await fetch(`${loupe.url}/readyz`)).status).toBe(200);
    const pr = github.addPullRequest({ owner: "octo", repo: "ready", number: 5, headRef: "change" });
    const target = fakeGitHubTarget(github, "ready");
    await deliverWebhook({
      url: loupe.webhookUrl,
      event: "pull_request",
      payload: pullRequestEvent("opened", target, pr),
      secret: SECRET,
    });
    await poll(async () => provider.requests.length > 0);
    const metrics = await (await fetch(`${loupe.url}/metrics`)).text();
    expect(metrics).toContain('loupe_queue_jobs{state="running"} 1');
    expect(metrics).toContain('loupe_webhook_deliveries_total{event="pull_request",outcome="queued"} 1');

    process.kill(loupe.pid, "SIGTERM");
    let answer = "";
    await poll(async () => {
      const response = await fetch(`${loupe.url}/readyz`);
      answer = `${response.status} ${await response.text()}`;
      return response.status !== 200;
    });
    expect(answer).toBe("503 not ready: shutting down\n");
    expect((await fetch(`${loupe.url}/healthz`)).status).toBe(200);
  });
});
