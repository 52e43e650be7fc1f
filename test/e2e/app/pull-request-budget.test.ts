// A cap per pull request through Loupe as a real server process, the fake GitHub and a scripted
// model that bills every review 15,100 tokens: the pull request's first review spends half of
// BUDGET_TOKENS_PER_PULL_REQUEST; its next push is skipped, the check run saying what the pull
// request spent across its pushes and the exact command a writer types for one more review;
// another pull request of the same repository is reviewed as usual.

import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { formatExternalId } from "../../../src/forges/github/external-id.ts";
import { nothingFound } from "../../support/chat-turns.ts";
import { fakeGitHubTarget, pullRequestEvent } from "../../support/fake-github-payloads.ts";
import { createOneChangeRepo } from "../../support/git-fixture.ts";
import { type ServerWorld, startServerWorld } from "../../support/server-world.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

function billedReview() {
  const body = nothingFound();
  return {
    body: { ...body, usage: { prompt_tokens: 15_000, completion_tokens: 100, total_tokens: 15_100 } },
  };
}

let world: ServerWorld;

beforeAll(async () => {
  world = await startServerWorld({
    name: "pr-budget",
    repo: "capped",
    script: [billedReview(), billedReview()],
    fixture: () =>
      createOneChangeRepo([
        { branch: "first", a: 2 },
        { branch: "first-pushed", a: 3, from: "first" },
        { branch: "second", a: 4 },
      ]),
    extra: { BUDGET_TOKENS_PER_PULL_REQUEST: "30000" },
  });
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

it("skips a push past the pull request's cap with the command to go on, and reviews other pull requests", async () => {
  const { github, loupe, provider, secret } = world;
  const target = fakeGitHubTarget(github, "capped");
  const send = async (action: string, number: number, headRef: string) => {
    const pr = github.addPullRequest({ owner: "octo", repo: "capped", number, headRef });
    const delivery = await deliverWebhook({
      url: loupe.webhookUrl,
      event: "pull_request",
      payload: pullRequestEvent(action, target, pr),
      secret,
    });
    expect(delivery.status).toBe(200);
    return await loupe.until(
      () =>
        github.checkRuns.find(
          (r) =>
            r.externalId === formatExternalId(number) &&
            r.headSha === pr.headSha &&
            r.history.at(-1)?.status === "completed",
        ),
      `the check run of #${number} at ${headRef}`,
    );
  };
  const first = await send("opened", 1, "first");
  expect(first.history.at(-1)?.conclusion).toBe("success");
  const pushed = (await send("synchronize", 1, "first-pushed")).history.at(-1)!;
  expect(pushed.conclusion).toBe("skipped");
  expect(pushed.output?.summary).toContain(
    "This pull request has used 15,100 tokens across all its pushes and re-runs, counting what reviews still running may spend, against a cap of 30,000 tokens (the operator's).",
  );
  expect(pushed.output?.summary).toContain("start this review with a comment `@loupe review`");
  expect(provider.requests).toHaveLength(1);
  const other = await send("opened", 2, "second");
  expect(other.history.at(-1)?.conclusion).toBe("success");
  expect(provider.requests).toHaveLength(2);
});
