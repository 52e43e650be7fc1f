// Cost and spend caps through Loupe as a real server process, the fake GitHub and the scripted
// model: a priced review shows its cost in its check run, its log line and /metrics, and spends
// most of the installation's daily tokens; the next pull request is refused before
// any model request, its check run saying what was spent, the cap and when it resets; a
// maintainer's `@loupe review` may go past the cap (up to BUDGET_HARD_FACTOR) and is reviewed.

import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { formatExternalId } from "../../../src/forges/github/external-id.ts";
import { nothingFound } from "../../support/chat-turns.ts";
import { fakeGitHubTarget, issueCommentEvent } from "../../support/fake-github-payloads.ts";
import { reviewThroughServer } from "../../support/server-review.ts";
import { type ServerWorld, startServerWorld } from "../../support/server-world.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

/** A final review whose round the provider bills at 15,000 prompt (10,000 cached) and 100 completion tokens. */
function expensiveReview() {
  const body = nothingFound();
  return {
    ...body,
    usage: {
      prompt_tokens: 15_000,
      completion_tokens: 100,
      total_tokens: 15_100,
      prompt_tokens_details: { cached_tokens: 10_000 },
    },
  };
}

let world: ServerWorld;

beforeAll(async () => {
  world = await startServerWorld({
    name: "budget",
    repo: "spend",
    collaborators: { Codertocat: "maintain" },
    script: [{ body: expensiveReview() }, { body: expensiveReview() }],
    extra: {
      BUDGET_TOKENS_PER_DAY: "30000",
      BUDGET_HARD_FACTOR: "1.5",
      LOG_FORMAT: "json",
      // $2 per million fresh input, $0.50 cached, $8 output.
      REVIEW_PRICE_INPUT: "2",
      REVIEW_PRICE_CACHED_INPUT: "0.5",
      REVIEW_PRICE_OUTPUT: "8",
    },
  });
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

it("refuses the review past the daily cap with the reset time, and a maintainer's command goes past it", async () => {
  const { github, provider, loupe, secret: SECRET } = world;
  const first = await reviewThroughServer({
    github,
    loupe,
    secret: SECRET,
    repo: "spend",
    number: 1,
    headRef: "change",
  });
  expect(first.history.at(-1)?.conclusion).toBe("success");
  // 5,000 × $2 + 10,000 × $0.50 + 100 × $8, per million: $0.0158 (the inert writer escapes `$`,
  // which GitHub would read as math).
  expect(first.history.at(-1)?.output?.summary).toContain(
    "Cost: \\$0.016 — 15,000 input (10,000 cached) and 100 output tokens.",
  );
  // The job counts its review once its check run is complete: wait for its end line, as an
  // operator's scrape a moment later would see it (under load the check run can come first).
  await loupe.until(
    () => (loupe.output().includes('"event":"review_ended"') ? true : undefined),
    "the first review's end",
  );
  const metrics = await (await fetch(`${loupe.url}/metrics`)).text();
  expect(metrics).toMatch(/^loupe_cost_dollars_total 0\.0158$/m);
  expect(metrics).toMatch(/^loupe_tokens_total\{kind="cached_input"\} 10000$/m);
  const ended = loupe
    .output()
    .split("\n")
    .filter((line) => line.includes('"review_ended"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(ended[0]).toMatchObject({ cost_dollars: 0.0158, input_tokens: 5000, cached_input_tokens: 10_000 });

  const second = await reviewThroughServer({
    github,
    loupe,
    secret: SECRET,
    repo: "spend",
    number: 2,
    headRef: "change",
  });
  const refused = second.history.at(-1)!;
  expect(refused.conclusion).toBe("skipped");
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  expect(refused.output?.summary).toContain(
    "has used 15,100 tokens today (UTC), counting what reviews still running may spend, against a cap of 30,000 tokens",
  );
  expect(refused.output?.summary).toContain(`It starts again at ${tomorrow} 00:00 UTC`);
  expect(refused.output?.summary).toContain("start this review with a comment `@loupe review` (up to");
  expect(provider.requests).toHaveLength(1);

  const pr = github.addPullRequest({ owner: "octo", repo: "spend", number: 2, headRef: "change" });
  const target = fakeGitHubTarget(github, "spend");
  const command = await deliverWebhook({
    url: loupe.webhookUrl,
    event: "issue_comment",
    payload: issueCommentEvent(target, pr, 5150, "@loupe review"),
    secret: SECRET,
  });
  expect(command.status).toBeLessThan(300);
  const externalId = formatExternalId(2);
  await loupe.until(
    () =>
      github.checkRuns.find(
        (r) =>
          r.repo === "spend" && r.externalId === externalId && r.history.at(-1)?.conclusion === "success",
      ),
    "the review a maintainer asked for past the cap",
  );
  expect(provider.requests).toHaveLength(2);
});
