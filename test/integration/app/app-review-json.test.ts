// What an agent reads from a finished App review: the check run's text ends with the review's
// document in a hidden `loupe:review-json` comment. Through Probot (a real pull_request.opened
// payload, nock for GitHub, the local git server, the scripted provider), the completed check
// run's text is read back with the reader docs/machine-output.md shows, and validated against
// docs/review-result.schema.json: once with a title written to close the comment, once with
// findings too long for GitHub's 65,535 characters.

import { describe, expect, it } from "@jest/globals";
import { CHECK_RUN_TEXT_LIMIT } from "../../../src/forges/github/check-run.ts";
import type { BlockDocument } from "../../../src/jobs/review-json-block.ts";
import {
  expectCleanEnd,
  mockPublish,
  mockReviewStart,
  PR,
  pullRequestPayload,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { finding, review, stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";
import { readReviewJson, reviewDocumentProblems } from "../../support/machine-checks.ts";

const app = useAppScenario();
const HOSTILE = "--><script>alert(1)</script> --!> <!-- @octocat";

async function finishedReview(findings: Record<string, unknown>[]) {
  const h = await app.start([
    {
      body: toolCallsTurn([
        { id: "call_1", name: "read_repository_file", arguments: { path: `src/${HOSTILE}.ts` } },
      ]),
    },
    { body: stopTurn(review(findings)) },
  ]);
  const gh = mockReviewStart(app.fx, { app: true });
  mockPublish(gh).createReview(PR, [200, { id: 77 }]);
  await h.receive("pull_request", pullRequestPayload(app.fx, "opened"), "delivery-json");
  await h.drain();
  const done = gh.completion();
  expectCleanEnd(h, app.provider, [gh]);
  expect(done).toMatchObject({ status: "completed", conclusion: "success" });
  return (done.output as { text: string }).text;
}

describe("the App's review for agents", () => {
  it("ends the check run's text with the review's document, valid, a hostile title inside it", async () => {
    const text = await finishedReview([finding({ title: HOSTILE, severity: "high" })]);
    // The trace (with the model's arguments quoted) comes first; the block is the text's end.
    expect(text).toContain("read_repository_file");
    expect(text.endsWith(" -->")).toBe(true);
    const document = readReviewJson(text) as BlockDocument;
    expect(reviewDocumentProblems(document)).toEqual([]);
    expect(document.outcome).toMatchObject({
      kind: "reviewed",
      completed: true,
      termination_reason: "final_review",
      head_sha: app.fx.headSha,
    });
    expect(document.findings).toHaveLength(1);
    expect(document.findings[0]).toMatchObject({
      title: HOSTILE,
      status: "new",
      posted: "inline",
      location: { path: "src/service.ts", start_line: 2, end_line: 2 },
    });
    expect(document.omitted).toEqual({ findings: 0, not_reviewed: 0, resolved: 0 });
    // Only the block's own opener and closer: nothing in it opens or ends a comment.
    const block = text.slice(text.lastIndexOf("<!-- loupe:review-json "));
    expect(block.match(/<!--/g)).toHaveLength(1);
    expect(block.match(/-->|--!>/g)).toHaveLength(1);
  });

  it("leaves out whole findings, counted, when they would not fit GitHub's limit", async () => {
    const long = "The write happens before the check. ".repeat(220); // ~7,900 characters
    const findings = Array.from({ length: 20 }, (_, i) =>
      finding({ title: `Finding ${i}`, explanation: long, severity: i < 10 ? "high" : "low" }),
    );
    const text = await finishedReview(findings);
    expect(text.length).toBeLessThanOrEqual(CHECK_RUN_TEXT_LIMIT);
    const document = readReviewJson(text) as BlockDocument;
    expect(reviewDocumentProblems(document)).toEqual([]);
    const kept = document.findings.length;
    expect(kept).toBeGreaterThan(0);
    expect(kept + document.omitted.findings).toBe(20);
    expect(document.omitted.findings).toBeGreaterThan(0);
    // The most severe are kept: every left-out finding is low.
    expect(document.findings.slice(0, Math.min(kept, 10)).every((f) => f.severity === "high")).toBe(true);
  });
});
