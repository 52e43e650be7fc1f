// Who may start an automatic review, through Loupe as a real server process against the fake
// GitHub and the realistic model, with the operator's default policy (members): a pull request a
// stranger opened spends nothing and gets a skipped check run that says how to start the review;
// a maintainer's `@loupe review` then reviews it.

import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { formatExternalId } from "../../../src/forges/github/external-id.ts";
import { fakeGitHubTarget, issueCommentEvent, pullRequestEvent } from "../../support/fake-github-payloads.ts";
import { requestKind } from "../../support/realistic-model.ts";
import { type ServerWorld, startServerWorld } from "../../support/server-world.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

let world: ServerWorld;

beforeAll(async () => {
  world = await startServerWorld({
    name: "authors",
    repo: "public",
    collaborators: { Codertocat: "maintain" },
  });
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

it("skips a stranger's pull request without a model request, then reviews it on a maintainer's command", async () => {
  const { github, provider, loupe, secret: SECRET } = world;
  const target = fakeGitHubTarget(github, "public");
  const pr = github.addPullRequest({ owner: "octo", repo: "public", number: 9, headRef: "change" });
  const opened = pullRequestEvent("opened", target, pr);
  opened.pull_request.user.login = "stranger";
  opened.pull_request.author_association = "FIRST_TIME_CONTRIBUTOR";
  const delivery = await deliverWebhook({
    url: loupe.webhookUrl,
    event: "pull_request",
    payload: opened,
    secret: SECRET,
  });
  expect(delivery.status).toBe(200);

  const externalId = formatExternalId(9);
  const completedRuns = () =>
    github.checkRuns.filter((r) => r.externalId === externalId && r.history.at(-1)?.status === "completed");
  const skipped = await loupe.until(() => completedRuns()[0]?.history.at(-1), "the skipped check run");
  expect(skipped.conclusion).toBe("skipped");
  expect(skipped.output?.summary).toContain("`auto_review_authors: members`");
  // The exact command to copy, with the App's own handle (its slug from GET /app).
  expect(skipped.output?.summary).toContain("with a comment `@loupe review`.");
  expect(provider.requests).toHaveLength(0);
  expect(github.reviews.filter((r) => r.repo === "public")).toHaveLength(0);

  const command = await deliverWebhook({
    url: loupe.webhookUrl,
    event: "issue_comment",
    payload: issueCommentEvent(target, pr, 4242, "@loupe review"),
    secret: SECRET,
  });
  expect(command.status).toBeLessThan(300);
  const reviewed = await loupe.until(
    () => completedRuns().find((r) => r.history.at(-1)?.conclusion === "success"),
    "the review a maintainer asked for",
  );
  expect(reviewed.history.at(-1)?.output?.summary).toContain("`final_review`");
  // The reviewer read the diff, then answered; its finding is on the pull request.
  const kinds = provider.requests.map(requestKind);
  expect(kinds.length).toBeGreaterThanOrEqual(2);
  expect(new Set(kinds)).toEqual(new Set(["review"]));
  const posted = github.reviews.filter((r) => r.repo === "public");
  expect(posted).toHaveLength(1);
  expect(posted[0]!.comments.map((c) => c.path)).toEqual(["src/a.ts"]);
});
