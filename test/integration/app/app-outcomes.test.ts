// How the loop's termination reasons, the fail_on gate and the repository config reach the check
// run, end to end through Probot (pull_request.opened example, nock, git server, scripted model).

import { describe, expect, it } from "@jest/globals";
import type { ReviewLimits } from "../../../src/config/review-limits.ts";
import {
  expectCleanEnd,
  mockHistory,
  mockPublish,
  mockReviewStart,
  OWNER,
  PR,
  pullRequestPayload,
  REPO,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { finding, review, stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";
import { mockGitHub } from "../../support/github-mock.ts";
import type { ScriptedTurn } from "../../support/scripted-provider.ts";

const app = useAppScenario({ harness: { botLogin: "loupe-test[bot]" } });

const read = (id: string) => ({
  body: toolCallsTurn([{ id, name: "read_repository_file", arguments: { path: "src/service.ts" } }]),
});

describe("termination reasons reach the check run", () => {
  const incomplete: [string, ScriptedTurn[], Partial<ReviewLimits>][] = [
    ["max_rounds", [read("c1"), read("c2")], { maxRounds: 2 }],
    [
      "max_tool_calls",
      [
        {
          body: toolCallsTurn([
            { id: "c1", name: "read_repository_file", arguments: { path: "src/service.ts" } },
            { id: "c2", name: "read_repository_file", arguments: { path: "src/util.ts" } },
          ]),
        },
        read("c3"),
      ],
      { maxToolCallsPerRound: 1 },
    ],
    [
      "invalid_tool_call",
      [{ body: toolCallsTurn([{ id: "c1", name: "run_shell", arguments: { cmd: "ls" } }]) }],
      {},
    ],
    [
      "provider_authentication_failed",
      [{ status: 401, body: { error: { message: "bad key sk-leak" } } }],
      {},
    ],
    ["provider_unavailable", [{ fault: "empty_500" }], {}],
    [
      "upstream_response_too_large",
      [{ fault: "stream_bytes", bytes: 256 * 1024 }],
      { maxResponseBytes: 64 * 1024 },
    ],
  ];
  it.each(incomplete)(
    "%s → neutral, nothing posted, the reason in the summary",
    async (reason, script, limits) => {
      const h = await app.start(script, { limits });
      const gh = mockHistory(mockReviewStart(app.fx));
      await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
      await h.drain();
      const done = gh.completion();
      expect(done.conclusion).toBe("neutral");
      const output = done.output as { title: string; summary: string };
      expect(output.title).toBe(`Loupe: review incomplete (${reason})`);
      expect(output.summary).toContain(`\`${reason}\``);
      expect(output.summary).not.toContain("sk-leak");
      expect(gh.reviewsPosted()).toEqual([]);
      expectCleanEnd(h, app.provider, [gh]);
    },
  );
});

describe("the check run says why a review failed", () => {
  const missing = () => ({ body: stopTurn(review([finding({ path: "src/gone.ts", line: 1 })])) });
  it("a final review that fails twice: the exact checks, nothing posted", async () => {
    const h = await app.start([{ body: stopTurn("Looks good!") }, missing()]);
    const gh = mockHistory(mockReviewStart(app.fx));
    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
    await h.drain();
    const done = gh.completion();
    expect(done.conclusion).toBe("neutral");
    const summary = (done.output as { summary: string }).summary;
    expect(summary).toContain("`invalid_model_response`");
    expect(summary).toContain("**Repair round:**");
    expect(summary).toContain("• `(answer): is not valid JSON;");
    expect(summary).toContain('• `findings[0].path: no such file in the head commit (got "src/gone.ts")`');
    expect(gh.reviewsPosted()).toEqual([]);
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("a repaired review is posted, and the check run shows the repair round and why", async () => {
    const h = await app.start([
      missing(),
      { body: stopTurn(review([finding({ line: 2, severity: "low" })])) },
    ]);
    const gh = mockReviewStart(app.fx);
    mockPublish(gh).createReview(PR);
    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
    await h.drain();
    const done = gh.completion();
    expect(done.conclusion).toBe("success");
    const output = done.output as { summary: string; text: string };
    expect(output.summary).toContain("the corrected review passed");
    expect(output.summary).toContain(
      '• `findings[0].path: no such file in the head commit (got "src/gone.ts")`',
    );
    expect(output.text).toContain("`request_repair`");
    expect(gh.reviewsPosted()).toHaveLength(1);
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("a 404 from the provider names the host, OPENAI_BASE_URL and REVIEW_MODEL", async () => {
    const h = await app.start([{ status: 404, body: { error: { message: "SECRET-BODY" } } }]);
    const gh = mockHistory(mockReviewStart(app.fx));
    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
    await h.drain();
    const summary = (gh.completion().output as { summary: string }).summary;
    expect(summary).toContain("`provider_request_rejected`");
    expect(summary).toContain(`\`${new URL(app.provider.baseURL).host}\` answered HTTP 404`);
    expect(summary).toContain("`OPENAI_BASE_URL`");
    expect(summary).toContain("`REVIEW_MODEL`");
    expect(summary).not.toContain("SECRET-BODY");
    expectCleanEnd(h, app.provider, [gh]);
  });
});

describe("the fail_on gate and the repository config", () => {
  it("a finding at fail_on → failure (and the review is still posted)", async () => {
    const h = await app.start([{ body: stopTurn(review([finding({ line: 2, severity: "high" })])) }]);
    const gh = mockReviewStart(app.fx, { config: "fail_on: high\n" });
    mockPublish(gh).createReview(PR);
    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
    await h.drain();
    expect(gh.reviewsPosted()).toHaveLength(1);
    expect(gh.completion().conclusion).toBe("failure");
    expect((gh.completion().output as { summary: string }).summary).toContain("fail_on");
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("a finding below fail_on → success", async () => {
    const h = await app.start([{ body: stopTurn(review([finding({ line: 2, severity: "medium" })])) }]);
    const gh = mockReviewStart(app.fx, { config: "fail_on: high\n" });
    mockPublish(gh).createReview(PR);
    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
    await h.drain();
    expect(gh.completion().conclusion).toBe("success");
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("paths from loupe.yml decide which files the model is told about", async () => {
    const h = await app.start([{ body: stopTurn(review([])) }]);
    const gh = mockReviewStart(app.fx, { config: 'paths:\n  include: ["src/util.ts"]\n' })
      .listReviewComments(PR)
      .listReviews(PR);
    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
    await h.drain();
    const prompt = app.provider.requests[0]!.bodyText;
    expect(prompt).toContain("src/util.ts");
    expect(prompt).not.toContain("src/service.ts");
    expect(gh.completion().conclusion).toBe("success");
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("invalid .github/loupe.yml → action_required with each error's path and message; no review", async () => {
    const h = await app.start([]);
    const gh = mockGitHub(OWNER, REPO, 1).token().createCheckRun(1).updateCheckRun(1);
    gh.configFile("min_severity: urgent\nreview_draft: true\n");
    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
    await h.drain();
    const done = gh.completion();
    expect(done.conclusion).toBe("action_required");
    const summary = (done.output as { summary: string }).summary;
    expect(summary).toContain("`min_severity`: must be one of critical, high, medium, low, info");
    expect(summary).toContain("`review_draft`: is not a known key");
    expect(app.provider.requests).toEqual([]);
    expectCleanEnd(h, app.provider, [gh]);
  });

  it.each([
    ["a draft", (p: ReturnType<typeof pullRequestPayload>) => (p.pull_request.draft = true), "draft"],
    [
      "a bot's PR",
      (p: ReturnType<typeof pullRequestPayload>) => (p.pull_request.user.type = "Bot"),
      "bot_author",
    ],
  ])("%s → skipped, no compare, no fetch, no model", async (_what, adapt, code) => {
    const h = await app.start([]);
    const gh = mockGitHub(OWNER, REPO, 1).token().createCheckRun(1).updateCheckRun(1).configMissing();
    const payload = pullRequestPayload(app.fx, "opened");
    adapt(payload);
    const fetchesBefore = app.git.requests.length;
    await h.receive("pull_request", payload);
    await h.drain();
    const done = gh.completion();
    expect(done.conclusion).toBe("skipped");
    expect((done.output as { title: string }).title).toBe(`Loupe: skipped (${code})`);
    expect(app.git.requests.length).toBe(fetchesBefore);
    expect(app.provider.requests).toEqual([]);
    // One line says it, with its reason.
    const ended = h.logs().filter((l) => l.includes('"event":"review_ended"'));
    expect(ended).toHaveLength(1);
    expect(JSON.parse(ended[0]!)).toMatchObject({ level: 30, conclusion: "skipped", skip_reason: code });
    expectCleanEnd(h, app.provider, [gh]);
  });
});

describe("a repository too large to fetch", () => {
  it("→ skipped (repository_too_large) naming the operator's limit; no model, no review", async () => {
    const h = await app.start([], { limits: { maxFetchBytes: 1024 } });
    const gh = mockReviewStart(app.fx);
    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
    await h.drain();
    const done = gh.completion();
    expect(done.conclusion).toBe("skipped");
    const output = done.output as { title: string; summary: string };
    expect(output.title).toBe("Loupe: skipped (repository_too_large)");
    expect(output.summary).toContain("more than 1024 bytes");
    expect(output.summary).toContain("`REVIEW_MAX_FETCH_BYTES`");
    expect(app.provider.requests).toEqual([]);
    expect(gh.reviewsPosted()).toEqual([]);
    expectCleanEnd(h, app.provider, [gh]);
  });
});
