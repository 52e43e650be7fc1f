// The whole review through Probot: a real pull_request.opened example payload, nock for GitHub's
// REST API, the real local git server for the fetch, and the scripted provider for the model.

import { afterAll, afterEach, beforeAll, describe, expect, it } from "@jest/globals";
import nock from "nock";
import { createPullRequestFixture, type PullRequestFixture } from "../support/app-pull-request.ts";
import {
  expectCleanEnd,
  mockPublish,
  mockReviewStart,
  OWNER,
  PR,
  pullRequestPayload,
  REPO,
} from "../support/app-scenario.ts";
import { finding, review, stopTurn, toolCallsTurn } from "../support/chat-turns.ts";
import { INSTALLATION_TOKEN } from "../support/github-mock.ts";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.ts";
import { createProbotHarness, isolateNetwork, releaseNetwork } from "../support/probot-harness.ts";
import { type ScriptedProvider, startScriptedProvider } from "../support/scripted-provider.ts";

let git: GitHttpServer;
let fx: PullRequestFixture;
let provider: ScriptedProvider | null = null;

beforeAll(async () => {
  isolateNetwork();
  git = await startGitHttpServer({ requireToken: INSTALLATION_TOKEN });
  fx = createPullRequestFixture();
  fx.publish(git.root, [`${OWNER}/${REPO}`], PR);
});

afterEach(async () => {
  await provider?.stop();
  provider = null;
  nock.cleanAll();
});

afterAll(async () => {
  await git.stop();
  fx.repo.dispose();
  releaseNetwork();
});

const gitBase = () => new URL(git.url("x")).origin;

describe("a pull_request.opened review, end to end", () => {
  it("creates the check run, reads config, compares, fetches, loops, posts one review and completes success", async () => {
    provider = await startScriptedProvider([
      {
        body: toolCallsTurn([
          { id: "call_1", name: "read_repository_file", arguments: { path: "src/service.ts" } },
        ]),
      },
      { body: stopTurn(review([finding({ line: 2, severity: "high" })])) },
    ]);
    const h = await createProbotHarness({ providerBaseURL: provider.baseURL, gitBaseUrl: gitBase() });
    const gh = mockReviewStart(fx, { app: true });
    mockPublish(gh).createReview(PR, [200, { id: 77 }]);

    await h.receive("pull_request", pullRequestPayload(fx, "opened"), "delivery-happy");
    await h.drain();

    // 1. check run in_progress on the head SHA, with the PR number in external_id.
    const created = gh.calls.find((c) => c.method === "POST" && c.path.endsWith("/check-runs"))!.body;
    expect(created).toMatchObject({
      name: "Loupe review",
      head_sha: fx.headSha,
      status: "in_progress",
      external_id: `loupe:pr=${PR}`,
    });
    // 3. the three-dot compare (base tip ... head), not base..head.
    expect(gh.calls.some((c) => c.path.endsWith(`/compare/${fx.baseSha}...${fx.headSha}`))).toBe(true);
    // 4. the git fetch: the token only as a header, never in a URL.
    expect(git.requests.length).toBeGreaterThan(0);
    expect(git.requests.every((r) => !r.url.includes(INSTALLATION_TOKEN))).toBe(true);
    expect(git.requests.some((r) => typeof r.headers.authorization === "string")).toBe(true);
    // 5. the loop: the tool result (the head file) went back to the model in round 2.
    expect(provider.requests).toHaveLength(2);
    const second = provider.requests[1]!.body as { messages: { role: string; content: string }[] };
    const tool = second.messages.find((m) => m.role === "tool")!;
    expect(tool.content).toContain("db.write(record);");
    // The lockfile is excluded by the default paths: the model was not told about it.
    expect(provider.requests[0]!.bodyText).not.toContain("package-lock.json");
    // 8. one review, COMMENT, on the head SHA, with the line-anchored comment.
    const posted = gh.reviewsPosted();
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ event: "COMMENT", commit_id: fx.headSha });
    expect(posted[0]!.comments).toEqual([
      expect.objectContaining({ path: "src/service.ts", line: 2, side: "RIGHT" }),
    ]);
    expect(posted[0]!.body).toContain(`<!-- loupe:review sha=${fx.headSha} run=1 -->`);
    // 9. completed success, the termination reason in the summary, the trace in the text.
    const done = gh.completion();
    expect(done).toMatchObject({ status: "completed", conclusion: "success" });
    const output = done.output as { title: string; summary: string; text: string };
    expect(output.summary).toContain("`final_review`");
    expect(output.title).toBe("Loupe: 1 finding (1 high)");
    expect(output.text).toContain("read_repository_file");
    expect(done.actions).toEqual([expect.objectContaining({ identifier: "rerun" })]);
    expectCleanEnd(h, provider, [gh]);
  });
});
