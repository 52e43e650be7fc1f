// The whole review through Probot: a real pull_request.opened example payload, nock for GitHub's
// REST API, the real local git server for the fetch, and the scripted provider for the model.

import { describe, expect, it } from "@jest/globals";
import {
  expectCleanEnd,
  mockPublish,
  mockReviewStart,
  PR,
  pullRequestPayload,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { finding, review, stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";
import { INSTALLATION_TOKEN } from "../../support/github-mock.ts";

const app = useAppScenario();

describe("a pull_request.opened review, end to end", () => {
  it("creates the check run, reads config, compares, fetches, loops, posts one review and completes success", async () => {
    const h = await app.start([
      {
        body: toolCallsTurn([
          { id: "call_1", name: "read_repository_file", arguments: { path: "src/service.ts" } },
        ]),
      },
      { body: stopTurn(review([finding({ line: 2, severity: "high" })])) },
    ]);
    const gh = mockReviewStart(app.fx, { app: true });
    mockPublish(gh).createReview(PR, [200, { id: 77 }]);

    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"), "delivery-happy");
    await h.drain();

    // 1. check run in_progress on the head SHA, with the PR number in external_id.
    const created = gh.calls.find((c) => c.method === "POST" && c.path.endsWith("/check-runs"))!.body;
    expect(created).toMatchObject({
      name: "Loupe review",
      head_sha: app.fx.headSha,
      status: "in_progress",
      external_id: `loupe:pr=${PR}`,
    });
    // 3. the three-dot compare (base tip ... head), not base..head.
    expect(gh.calls.some((c) => c.path.endsWith(`/compare/${app.fx.baseSha}...${app.fx.headSha}`))).toBe(
      true,
    );
    // 4. the git fetch: the token only as a header, never in a URL.
    expect(app.git.requests.length).toBeGreaterThan(0);
    expect(app.git.requests.every((r) => !r.url.includes(INSTALLATION_TOKEN))).toBe(true);
    expect(app.git.requests.some((r) => typeof r.headers.authorization === "string")).toBe(true);
    // 5. the loop: the tool result (the head file) went back to the model in round 2.
    expect(app.provider.requests).toHaveLength(2);
    const second = app.provider.requests[1]!.body as { messages: { role: string; content: string }[] };
    const tool = second.messages.find((m) => m.role === "tool")!;
    expect(tool.content).toContain("db.write(record);");
    // The lockfile is excluded by the default paths: the model was not told about it.
    expect(app.provider.requests[0]!.bodyText).not.toContain("package-lock.json");
    // 8. one review, COMMENT, on the head SHA, with the line-anchored comment.
    const posted = gh.reviewsPosted();
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ event: "COMMENT", commit_id: app.fx.headSha });
    expect(posted[0]!.comments).toEqual([
      expect.objectContaining({ path: "src/service.ts", line: 2, side: "RIGHT" }),
    ]);
    expect(posted[0]!.body).toContain(`<!-- loupe:review sha=${app.fx.headSha} run=1 -->`);
    // 9. completed success, the termination reason in the summary, the trace in the text.
    const done = gh.completion();
    expect(done).toMatchObject({ status: "completed", conclusion: "success" });
    const output = done.output as { title: string; summary: string; text: string };
    expect(output.summary).toContain("`final_review`");
    expect(output.title).toBe("Loupe: 1 finding (1 high)");
    expect(output.text).toContain("read_repository_file");
    expect(done.actions).toEqual([expect.objectContaining({ identifier: "rerun" })]);
    expectCleanEnd(h, app.provider, [gh]);
  });
});
