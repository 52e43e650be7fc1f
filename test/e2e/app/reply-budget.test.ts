// Replies spend from the same budgets as reviews, through Loupe as a real server process, the fake
// GitHub and the scripted model: a review bills most of the installation's daily tokens, and the
// pull request's author — who may only read the repository — then replies in the review's thread.
// The reply is refused before any model request: one line in the thread says what was spent, the
// cap, when it starts again and who can raise it.

import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { stopTurn } from "../../support/chat-turns.ts";
import { fakeGitHubTarget, reviewCommentReplyEvent } from "../../support/fake-github-payloads.ts";
import { reviewThroughServer } from "../../support/server-review.ts";
import { ONE_CHANGE_FINDING, type ServerWorld, startServerWorld } from "../../support/server-world.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

/** GitHub's example pull request is opened by this account. */
const AUTHOR = "Codertocat";

/** The review, billed at 15,100 tokens: three quarters of the day's cap of 20,000. */
function billedReview() {
  const body = stopTurn({
    summary: "One value changed.",
    findings: [
      {
        severity: ONE_CHANGE_FINDING.severity,
        title: ONE_CHANGE_FINDING.titles[0],
        explanation: `The literal 2 is unexplained: ${ONE_CHANGE_FINDING.impact}.`,
        path: ONE_CHANGE_FINDING.path,
        line: ONE_CHANGE_FINDING.line,
        evidence: ONE_CHANGE_FINDING.code,
        recommendation: ONE_CHANGE_FINDING.recommendation,
      },
    ],
    notes: [],
  });
  return { ...body, usage: { prompt_tokens: 15_000, completion_tokens: 100, total_tokens: 15_100 } };
}

let world: ServerWorld;

beforeAll(async () => {
  world = await startServerWorld({
    name: "reply-budget",
    repo: "replies",
    collaborators: { [AUTHOR]: "read" },
    // One turn: the review's. A reply that reached the model would find no turn, and be counted.
    script: [{ body: billedReview() }],
    extra: { BUDGET_TOKENS_PER_DAY: "20000", LOG_FORMAT: "json", REVIEW_VERIFY: "off" },
  });
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

it("refuses the author's reply past the day's cap with one line, and asks the model nothing", async () => {
  const { github, provider, loupe, secret } = world;
  const reviewed = await reviewThroughServer({
    github,
    loupe,
    secret,
    repo: "replies",
    number: 1,
    headRef: "change",
  });
  expect(reviewed.history.at(-1)?.conclusion).toBe("success");
  expect(provider.requests).toHaveLength(1);

  const pr = github.addPullRequest({ owner: "octo", repo: "replies", number: 1, headRef: "change" });
  const root = github.reviews.find((r) => r.repo === "replies")!.comments[0]!;
  const text = "@loupe why is this a problem? It is only a constant.";
  const replyId = github.addPersonReply({
    owner: "octo",
    repo: "replies",
    pullNumber: 1,
    rootId: root.id,
    login: AUTHOR,
    body: text,
  });
  const target = fakeGitHubTarget(github, "replies");
  const delivery = await deliverWebhook({
    url: loupe.webhookUrl,
    event: "pull_request_review_comment",
    payload: reviewCommentReplyEvent(target, pr, {
      id: replyId,
      inReplyTo: root.id,
      body: text,
      login: AUTHOR,
    }),
    secret,
  });
  expect(delivery.status).toBeLessThan(300);

  const answer = await loupe.until(
    () => github.threadReplies.find((r) => r.inReplyTo === root.id && r.user.type === "Bot"),
    "Loupe's one-line answer in the thread",
  );
  const visible = answer.body.replace(/<!--[\s\S]*?-->/g, "").trim();
  expect(visible.split("\n")).toHaveLength(1);
  expect(visible).toContain(
    "Loupe did not answer this reply. Budget reached: This installation has used 15,100 tokens today (UTC)",
  );
  expect(visible).toContain("against a cap of 20,000 tokens (the operator's). It starts again at ");
  expect(visible).toContain("Replies stop at the cap; the operator can raise it.");
  expect(answer.body).toContain(`<!-- loupe:reply-to=${replyId} -->`);
  // No model request for the reply: the review's one request is all the model was asked.
  expect(provider.requests).toHaveLength(1);
  await loupe.until(
    () => (loupe.output().includes('"event":"reply_ended"') ? true : undefined),
    "the reply's end",
  );
  const ended = loupe
    .output()
    .split("\n")
    .filter((line) => line.includes('"reply_ended"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(ended.at(-1)).toMatchObject({ outcome: "refused", reason: "budget_reached", tokens: 0 });
  const metrics = await (await fetch(`${loupe.url}/metrics`)).text();
  expect(metrics).toMatch(/^loupe_thread_replies_total\{outcome="refused"\} 1$/m);
});
