// One review through a real server process and the fake GitHub: a pull request opened on the fake,
// its signed webhook delivered to the server, and its check run awaited until it is completed.

import { expect } from "@jest/globals";
import { formatExternalId } from "../../src/forges/github/external-id.ts";
import type { FakeGitHub } from "./fake-github.ts";
import type { CheckRun } from "./fake-github-checks.ts";
import { pullRequestEvent } from "./fake-github-payloads.ts";
import type { LoupeProcess } from "./loupe-process.ts";
import { deliverWebhook } from "./webhook-delivery.ts";

export interface ServerReview {
  readonly github: FakeGitHub;
  readonly loupe: LoupeProcess;
  readonly secret: string;
  readonly repo: string;
  readonly number: number;
  readonly headRef: string;
}

export async function reviewThroughServer(review: ServerReview): Promise<CheckRun> {
  const { github, loupe, repo, number } = review;
  const target = { htmlBase: github.url, owner: "octo", repo, defaultBranch: "main", installationId: 1 };
  const pr = github.addPullRequest({ owner: "octo", repo, number, headRef: review.headRef });
  const delivery = await deliverWebhook({
    url: loupe.webhookUrl,
    event: "pull_request",
    payload: pullRequestEvent("opened", target, pr),
    secret: review.secret,
  });
  expect(delivery.status).toBe(200);
  const externalId = formatExternalId(number);
  return await loupe.until(
    () =>
      github.checkRuns.find(
        (r) => r.repo === repo && r.externalId === externalId && r.history.at(-1)?.status === "completed",
      ),
    `the check run of octo/${repo}#${number}`,
  );
}
