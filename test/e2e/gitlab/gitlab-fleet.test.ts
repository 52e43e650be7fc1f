// The fleet with GitLab and GitHub work in the same queues: two real server processes on one real
// redis-server, both configured for the fake GitHub and the fake GitLab. A GitHub pull request
// delivered to one replica and a GitLab merge request delivered to the other are each reviewed
// once, by whichever replica's worker takes the job; then a reply in Loupe's GitLab discussion,
// delivered to the first replica, goes through the fleet's reply queue and is answered once.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { stopTurn } from "../../support/chat-turns.ts";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { fakeGitHubTarget, pullRequestEvent } from "../../support/fake-github-payloads.ts";
import { type FakeGitLab, startFakeGitLab } from "../../support/fake-gitlab.ts";
import type { FixtureRepo } from "../../support/git-fixture.ts";
import { deliverGitLabEvent, mergeRequestEvent, noteEvent } from "../../support/gitlab-webhooks.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import { type RedisServer, startRedisServer } from "../../support/redis-server.ts";
import { type ScriptedProvider, startScriptedProvider } from "../../support/scripted-provider.ts";
import { createValuesRepo, v10Review } from "../../support/values-repo.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

const SECRET = `whsec-gitlab-fleet-${process.pid}-${Date.now()}`; // never under 16 characters, whatever the pid
const GITLAB_SECRET = `gitlab-hook-fleet-${process.pid}-${Date.now()}`;
const REPLY = "@loupe-bot this is intended: we bumped it on purpose.";

let redis: RedisServer;
let github: FakeGitHub;
let gitlab: FakeGitLab;
let provider: ScriptedProvider;
let fixture: FixtureRepo;
const replicas: LoupeProcess[] = [];

const review = { body: stopTurn(v10Review()) };

beforeAll(async () => {
  redis = await startRedisServer();
  fixture = createValuesRepo();
  github = await startFakeGitHub();
  github.addRepository({ owner: "octo", repo: "values", source: fixture });
  gitlab = await startFakeGitLab();
  gitlab.addProject({ path: "team/values", source: fixture, members: { dev: 30 } });
  provider = await startScriptedProvider([
    review,
    review,
    {
      when: "bumped it on purpose",
      turn: { body: stopTurn({ reply: "Understood: it stays open.", finding_status: "still_valid" }) },
    },
  ]);
  const env = fakeWorldEnv({
    github,
    providerBaseURL: provider.baseURL,
    webhookSecret: SECRET,
    apiKey: `test-key-gitlab-fleet-${process.pid}`,
    extra: {
      REDIS_URL: redis.url,
      FLEET_LOCK_MS: "2500",
      GITLAB_URL: gitlab.url,
      GITLAB_TOKEN: gitlab.token,
      GITLAB_WEBHOOK_SECRET: GITLAB_SECRET,
    },
  });
  replicas.push(
    ...(await Promise.all([
      startLoupeProcess({ command: "node", env }),
      startLoupeProcess({ command: "node", env }),
    ])),
  );
}, 120_000);

afterAll(async () => {
  for (const loupe of replicas) await loupe.stop(5000);
  await provider?.stop();
  await gitlab?.stop();
  await github?.stop();
  await redis?.stop();
  fixture?.dispose();
});

describe("a fleet with GitLab and GitHub work in the same queues", () => {
  it("reviews a pull request and a merge request once each, whichever replica took them", async () => {
    const [a, b] = replicas as [LoupeProcess, LoupeProcess];
    const pr = github.addPullRequest({ owner: "octo", repo: "values", number: 3, headRef: "change-v10" });
    const target = fakeGitHubTarget(github, "values");
    const mrHead = gitlab.addMergeRequest({ project: "team/values", iid: 3, sourceBranch: "change-v10" })
      .diffRefs.head_sha;
    const opened = mergeRequestEvent({ project: "team/values", iid: 3, headSha: mrHead, action: "open" });
    const [github200, gitlab200] = await Promise.all([
      deliverWebhook({
        url: a.webhookUrl,
        event: "pull_request",
        payload: pullRequestEvent("opened", target, pr),
        secret: SECRET,
      }),
      deliverGitLabEvent(`${b.url}/api/gitlab/webhooks`, GITLAB_SECRET, opened),
    ]);
    expect(github200.status).toBeLessThan(300);
    expect(gitlab200).toBe(200);

    await a.until(
      () =>
        github.checkRuns.find((r) => r.headSha === pr.headSha && r.history.at(-1)?.status === "completed"),
      "the GitHub check run completed",
    );
    await b.until(
      () => gitlab.statuses.find((s) => s.sha === mrHead && s.status !== "pending"),
      "the GitLab final status",
    );
    expect(github.reviews.filter((r) => r.commitId === pr.headSha)).toHaveLength(1);
    expect(gitlab.publishes).toHaveLength(1);
    expect(gitlab.statuses.filter((s) => s.sha === mrHead).map((s) => s.status)).toEqual([
      "pending",
      "success",
    ]);
    const started = replicas
      .flatMap((r) => r.output().split("\n"))
      .filter((l) => l.includes("fleet job started"));
    expect(started.filter((l) => l.includes("team/values")).length).toBeGreaterThanOrEqual(1);

    const finding = gitlab.notes.find((n) => n.author === gitlab.username && n.type === "DiffNote")!;
    const reply = gitlab.addNote({
      project: "team/values",
      iid: 3,
      author: "dev",
      body: REPLY,
      replyTo: finding,
    });
    const event = noteEvent({
      project: "team/values",
      iid: 3,
      headSha: mrHead,
      note: { id: reply.id, body: REPLY, author: "dev", discussionId: reply.discussionId, type: "DiffNote" },
    });
    expect(
      await deliverGitLabEvent(`${a.url}/api/gitlab/webhooks`, GITLAB_SECRET, event, {
        eventHeader: "Note Hook",
      }),
    ).toBe(200);
    const answer = await a.until(
      () =>
        gitlab.notes.find(
          (n) => n.discussionId === finding.discussionId && n.author === gitlab.username && n.id > reply.id,
        ),
      "Loupe's answer in the discussion",
    );
    expect(answer.body).toContain("Understood: it stays open.");
    // Redelivered to the other replica, it is answered once: the second job finds Loupe's answer.
    expect(
      await deliverGitLabEvent(`${b.url}/api/gitlab/webhooks`, GITLAB_SECRET, event, {
        eventHeader: "Note Hook",
      }),
    ).toBe(200);
    const said = (text: string) =>
      replicas.flatMap((r) => r.output().split("\n")).filter((l) => l.includes(text));
    const handled = await b.until(
      () => said(`"note":${reply.id},"kind":"reply_queued"`)[1],
      "the redelivery handled",
    );
    // The fleet's reply queue knows the comment (duplicate_reply), or the second job finds Loupe's answer.
    if (!handled.includes('"queue":"duplicate_reply"'))
      await b.until(() => said('"reason":"already_answered"')[0], "the second reply job skipped");
    const loupes = gitlab.notes.filter(
      (n) => n.discussionId === finding.discussionId && n.author === gitlab.username,
    );
    expect(loupes).toHaveLength(2);
  });
});
