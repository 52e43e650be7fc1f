// Loupe as a real server process, started with the README's run command (`npm start`), against
// a fake GitHub (REST + git smart HTTP on 127.0.0.1) and the realistic model (an OpenAI-compatible
// server that reads the diff before it answers, as real models do).
// A signed pull_request.opened webhook must be acknowledged at once, then produce a check run
// in_progress → completed that names why the loop stopped, and one review whose line comments
// the fake (validating like GitHub) accepted. No secret may reach a request body or a log line.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { fakeGitHubTarget, pullRequestEvent } from "../../support/fake-github-payloads.ts";
import type { FixtureRepo } from "../../support/git-fixture.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import {
  type KnownFinding,
  requestKind,
  STOP_TURN_USAGE,
  startRealisticModel,
  TOOL_TURN_USAGE,
  toolCallsBefore,
} from "../../support/realistic-model.ts";
import type { ScriptedProvider } from "../../support/scripted-provider.ts";
import { createValuesRepo } from "../../support/values-repo.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

const SECRET = `whsec-e2e-${process.pid}-${Date.now()}`;
const API_KEY = `test-key-e2e-${process.pid}-${Date.now()}`;

let github: FakeGitHub;
let provider: ScriptedProvider;
let loupe: LoupeProcess;
let fixture: FixtureRepo;

const V10: KnownFinding = {
  path: "src/values.ts",
  line: 10,
  severity: "medium",
  titles: [
    "v10 no longer equals its name",
    "`v10` is set to 100 while every other constant equals its index",
  ],
  code: "export const v10 = 100;",
  impact: "code that relies on `vN === N` now gets the wrong value",
  recommendation: "Restore 10 or rename the constant.",
};

/** The repository the webhooks name (the fake's URL is known once it has started). */
const target = () => fakeGitHubTarget(github, "values");

beforeAll(async () => {
  fixture = createValuesRepo();
  github = await startFakeGitHub();
  github.addRepository({ owner: "octo", repo: "values", source: fixture });
  // The first answer is delayed so the review is still running when the webhook is answered.
  provider = await startRealisticModel({ findings: [V10], firstAnswerDelayMs: 1500 });
  const env = fakeWorldEnv({
    github,
    providerBaseURL: provider.baseURL,
    webhookSecret: SECRET,
    apiKey: API_KEY,
  });
  // The one world at the production default: GitHub's writes spaced as Probot spaces them.
  delete env.GITHUB_WRITE_SPACING_MS;
  loupe = await startLoupeProcess({ command: "npm", env });
}, 60_000);

afterAll(async () => {
  await loupe?.stop();
  await provider?.stop();
  await github?.stop();
  fixture?.dispose();
});

describe("Loupe as a server process (npm start) against a fake GitHub", () => {
  it("answers GET /ping", async () => {
    const response = await fetch(`${loupe.url}/ping`);
    expect(await response.text()).toBe("PONG");
  });

  it("refuses a webhook with a bad signature with 400 and queues nothing", async () => {
    const pr = github.addPullRequest({ owner: "octo", repo: "values", number: 8, headRef: "change-v10" });
    const forged = await deliverWebhook({
      url: loupe.webhookUrl,
      event: "pull_request",
      payload: pullRequestEvent("opened", target(), pr),
      secret: SECRET,
      signature: `sha256=${"0".repeat(64)}`,
    });
    expect(forged.status).toBe(400);
    // Checked again after the real review below: nothing ever touched PR 8.
  });

  it("reviews a signed pull_request.opened end to end", async () => {
    const pr = github.addPullRequest({
      owner: "octo",
      repo: "values",
      number: 7,
      headRef: "change-v10",
      title: "Make v10 a hundred",
      body: "Please review.",
    });
    const delivery = await deliverWebhook({
      url: loupe.webhookUrl,
      event: "pull_request",
      payload: pullRequestEvent("opened", target(), pr),
      secret: SECRET,
    });
    const completedAtAck = github.checkRuns.filter((r) => r.history.at(-1)?.status === "completed").length;
    expect(delivery.status).toBeGreaterThanOrEqual(200);
    expect(delivery.status).toBeLessThan(300);
    expect(completedAtAck).toBe(0); // answered before the review finished

    const run = await loupe.until(
      () =>
        github.checkRuns.find((r) => r.headSha === pr.headSha && r.history.at(-1)?.status === "completed"),
      "a completed check run",
    );
    const statuses = run.history.map((s) => s.status);
    expect(statuses[0]).toBe("in_progress");
    expect(statuses.at(-1)).toBe("completed");
    const final = run.history.at(-1)!;
    expect(final.conclusion).not.toBeNull();
    expect(final.output?.summary).toContain("The model returned a final review that passed validation.");

    const review = await loupe.until(() => github.reviews.find((r) => r.pullNumber === 7), "a review");
    expect(github.reviews.filter((r) => r.pullNumber === 7)).toHaveLength(1);
    expect(review.commitId).toBe(pr.headSha);
    expect(review.comments).toEqual([
      expect.objectContaining({ path: "src/values.ts", line: 10, side: "RIGHT" }),
    ]);
    expect(github.requests.filter((r) => r.status === 422)).toEqual([]);
    // One loop: the model read before it answered.
    expect(provider.requests.length).toBeGreaterThanOrEqual(2);
    expect(new Set(provider.requests.map(requestKind))).toEqual(new Set(["review"]));
    expect(toolCallsBefore(provider.requests.at(-1)!)[0]).toBe("inspect_git_diff");
    // The App fetched the head over smart HTTP with the installation token, never in the URL.
    expect(github.gitRequests.some((r) => r.url.includes("git-upload-pack"))).toBe(true);
  });

  it("spaced its writes to GitHub at least Probot's second apart (GITHUB_WRITE_SPACING_MS unset)", () => {
    const writes = github.requests.filter(
      (r) =>
        r.url.startsWith("/api/") && !["GET", "HEAD"].includes(r.method) && !r.url.endsWith("/access_tokens"),
    );
    expect(writes.length).toBeGreaterThanOrEqual(3); // the check run, its completion, the review
    const gaps = writes.slice(1).map((w, i) => w.receivedAt - writes[i]!.receivedAt);
    // A quarter of the spacing for the connections' own delays, which differ between requests.
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(750);
  });

  it("kept PR 8 (bad signature) untouched", () => {
    expect(github.checkRuns).toHaveLength(1); // the one of PR 7
    expect(github.requests.filter((r) => r.url.includes("/pulls/8"))).toEqual([]);
  });

  it("reports the review on /metrics and in one JSON log line, naming no repository in a label", async () => {
    const metrics = await (await fetch(`${loupe.url}/metrics`)).text();
    const sample = (line: string) =>
      metrics
        .split("\n")
        .find((l) => l.startsWith(`${line} `))
        ?.split(" ")[1];
    expect(sample('loupe_reviews_total{termination_reason="final_review",conclusion="success"}')).toBe("1");
    expect(sample("loupe_review_duration_seconds_count")).toBe("1");
    // What the model did, from its transcript: each tool round and the answer bill their usage.
    const calls = toolCallsBefore(provider.requests.at(-1)!);
    const toolRounds = provider.requests.length - 1;
    for (const tool of new Set(calls)) {
      const count = calls.filter((c) => c === tool).length;
      expect([tool, sample(`loupe_tool_calls_total{tool="${tool}",ok="true"}`)]).toEqual([
        tool,
        String(count),
      ]);
    }
    const prompt = toolRounds * TOOL_TURN_USAGE.prompt + STOP_TURN_USAGE.prompt;
    const completion = toolRounds * TOOL_TURN_USAGE.completion + STOP_TURN_USAGE.completion;
    expect(sample('loupe_provider_tokens_total{kind="prompt"}')).toBe(String(prompt));
    expect(sample('loupe_provider_tokens_total{kind="completion"}')).toBe(String(completion));
    expect(sample('loupe_webhook_deliveries_total{event="pull_request",outcome="queued"}')).toBe("1");
    // The forged delivery of the test above: counted, under no event name its sender chose.
    expect(sample('loupe_webhook_deliveries_total{event="unverified",outcome="bad_signature"}')).toBe("1");
    expect(sample('loupe_queue_jobs{state="running"}')).toBe("0");
    expect(sample('loupe_queue_jobs{state="waiting"}')).toBe("0");
    expect(sample("process_cpu_user_seconds_total")).toBeDefined(); // Node's default metrics
    expect(metrics).not.toMatch(/octo|values/);
    expect((await fetch(`${loupe.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${loupe.url}/readyz`)).status).toBe(200);

    const ended = loupe
      .output()
      .split("\n")
      .filter((line) => line.includes('"review_ended"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const pr7 = github.checkRuns[0]!.headSha;
    expect(ended).toEqual([
      expect.objectContaining({
        repository: "octo/values",
        pull_request: 7,
        head_sha: pr7,
        termination_reason: "final_review",
        conclusion: "success",
        rounds: provider.requests.length,
        tool_calls: calls.length,
        tokens: prompt + completion,
        duration_ms: expect.any(Number),
      }),
    ]);
  });

  it("never put a token, the API key or the private key into a request body or a log line", () => {
    const secrets = [...github.issuedTokens, API_KEY, SECRET, github.privateKey.split("\n")[1]!];
    expect(github.issuedTokens.length).toBeGreaterThan(0);
    const bodies = [...github.requests.map((r) => r.body), ...provider.requests.map((r) => r.bodyText)];
    const output = loupe.output();
    expect(output).toContain("\n"); // LOG_LEVEL=info: the process did log
    for (const secret of secrets) {
      expect(bodies.filter((b) => b.includes(secret))).toEqual([]);
      expect(output.split("\n").filter((line) => line.includes(secret))).toEqual([]);
      expect(github.gitRequests.filter((r) => r.url.includes(secret))).toEqual([]);
    }
  });
});
