// The model provider's errors in /metrics of a real server process: a provider that answers a
// review's first call with an HTML 502 and its retry with a dropped connection, then a final
// review. Each failed attempt is counted by kind — in the repository worker thread that makes the
// call, told to the server's metrics — and the review still ends with its final review.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { stopTurn } from "../../support/chat-turns.ts";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { fakeGitHubTarget, pullRequestEvent } from "../../support/fake-github-payloads.ts";
import { createOneChangeRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { parseJsonLines } from "../../support/json-lines.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import { type ScriptedProvider, startScriptedProvider } from "../../support/scripted-provider.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

const SECRET = `whsec-provider-errors-${process.pid}-${Date.now()}`; // never under 16 characters, whatever the pid
let github: FakeGitHub;
let provider: ScriptedProvider;
let fixture: FixtureRepo;
let loupe: LoupeProcess;

beforeAll(async () => {
  fixture = createOneChangeRepo();
  github = await startFakeGitHub();
  github.addRepository({ owner: "octo", repo: "flaky", source: fixture });
  const final = { summary: "Fine.", findings: [], notes: ["Reviewed despite the provider."] };
  provider = await startScriptedProvider([
    { fault: "html_502" },
    { fault: "reset" },
    { body: stopTurn(final) },
  ]);
  loupe = await startLoupeProcess({
    command: "node",
    env: fakeWorldEnv({
      github,
      providerBaseURL: provider.baseURL,
      webhookSecret: SECRET,
      apiKey: `test-key-provider-errors-${process.pid}`,
      extra: { LOG_FORMAT: "json" },
    }),
  });
}, 60_000);

afterAll(async () => {
  await loupe?.stop(2000);
  await provider?.stop();
  await github?.stop();
  fixture?.dispose();
});

describe("the provider's errors", () => {
  it("are counted by kind, with no repository label", async () => {
    const pr = github.addPullRequest({ owner: "octo", repo: "flaky", number: 4, headRef: "change" });
    const target = fakeGitHubTarget(github, "flaky");
    const payload = pullRequestEvent("opened", target, pr);
    await deliverWebhook({ url: loupe.webhookUrl, event: "pull_request", payload, secret: SECRET });
    const ended = await loupe.until(
      () => parseJsonLines(loupe.output()).find((line) => line.event === "review_ended"),
      "the review's end",
    );
    expect(ended).toMatchObject({ termination_reason: "final_review" });
    const metrics = await (await fetch(`${loupe.url}/metrics`)).text();
    expect(metrics).toContain('loupe_dependency_errors_total{dependency="provider",kind="server_error"} 1');
    expect(metrics).toContain(
      'loupe_dependency_errors_total{dependency="provider",kind="connection_reset"} 1',
    );
    expect(metrics).not.toContain("octo/flaky");
  }, 120_000);
});
