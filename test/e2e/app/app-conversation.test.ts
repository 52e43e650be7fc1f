// The pull request conversation, through Loupe as a real server process (`npm start`) against the
// fake GitHub and the scripted model: a signed issue_comment `@loupe review` from a maintainer is
// acknowledged with 👀, reviewed as a full review (no earlier review: the check run says so), and
// the review records the reviewed marker for the next incremental review. Then a maintainer's
// reply in the thread of that review's finding is answered there, and the thread resolved; a
// collaborator who can only read is asked about and left unanswered.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { stopTurn } from "../../support/chat-turns.ts";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { issueCommentEvent, reviewCommentReplyEvent } from "../../support/fake-github-payloads.ts";
import { createOneChangeRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { fakeWorldEnv, type LoupeProcess, startLoupeProcess } from "../../support/loupe-process.ts";
import { type ScriptedProvider, startScriptedProvider } from "../../support/scripted-provider.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

const SECRET = `whsec-e2e-conv-${process.pid}-${Date.now()}`;
const API_KEY = `test-key-e2e-conv-${process.pid}-${Date.now()}`;

let github: FakeGitHub;
let provider: ScriptedProvider;
let loupe: LoupeProcess;
let fixture: FixtureRepo;

const finalReview = {
  summary: "The constant changed.",
  findings: [
    {
      severity: "low",
      title: "a is no longer 1",
      explanation: "The value of a changed from 1 to 2.",
      path: "src/a.ts",
      line: 1,
      evidence: "export const a = 2;",
      recommendation: "Say why in the description.",
    },
  ],
  notes: [],
};

beforeAll(async () => {
  fixture = createOneChangeRepo();
  github = await startFakeGitHub();
  // The example payloads' commenters; Loupe asks GitHub whether each may write.
  github.addRepository({
    owner: "octo",
    repo: "talk",
    source: fixture,
    collaborators: { Codertocat: "maintain", octocat: "write", reader: "read" },
  });
  provider = await startScriptedProvider([
    { body: stopTurn(finalReview) },
    {
      body: stopTurn({
        reply: "You are right: the change to 2 is intended, so this is withdrawn.",
        finding_status: "withdrawn",
      }),
    },
  ]);
  loupe = await startLoupeProcess({
    command: "npm",
    env: fakeWorldEnv({ github, providerBaseURL: provider.baseURL, webhookSecret: SECRET, apiKey: API_KEY }),
  });
}, 60_000);

afterAll(async () => {
  await loupe?.stop();
  await provider?.stop();
  await github?.stop();
  fixture?.dispose();
});

const target = {
  owner: "octo",
  repo: "talk",
  defaultBranch: "main",
  installationId: 1,
};

describe("the conversation through a real server process", () => {
  it("`@loupe review` from a maintainer: 👀, a check run that says the scope, one review with the marker", async () => {
    const pr = github.addPullRequest({ owner: "octo", repo: "talk", number: 4, headRef: "change" });
    const response = await deliverWebhook({
      url: loupe.webhookUrl,
      event: "issue_comment",
      payload: issueCommentEvent(
        { ...target, htmlBase: github.url },
        pr,
        31337,
        "Ready again. @loupe review",
      ),
      secret: SECRET,
    });
    expect(response.status).toBeLessThan(300);

    const done = await loupe.until(() => {
      const run = github.checkRuns.find((r) => r.headSha === pr.headSha);
      const last = run?.history.at(-1);
      return last?.status === "completed" ? last : undefined;
    }, "the completed check run");
    expect(github.reactions).toEqual([{ owner: "octo", repo: "talk", commentId: 31337, content: "eyes" }]);
    expect(done.conclusion).toBe("success");
    expect(done.output?.summary).toContain("full review: Loupe has not reviewed this pull request before");
    const reviews = github.reviews.filter((r) => r.repo === "talk");
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.body).toContain(`<!-- loupe:reviewed head=${pr.headSha} `);
    expect(reviews[0]!.comments).toHaveLength(1);
    expect(loupe.output()).not.toContain(API_KEY);
  });

  it("a reply in Loupe's thread: 👀, an answer in that thread, and the withdrawn finding's thread resolved", async () => {
    const pr = github.addPullRequest({ owner: "octo", repo: "talk", number: 4, headRef: "change" });
    const root = github.reviews.find((r) => r.repo === "talk")!.comments[0]!;
    const replyId = github.addPersonReply({
      owner: "octo",
      repo: "talk",
      pullNumber: 4,
      rootId: root.id,
      login: "octocat",
      body: "@loupe this is intended: we bumped it on purpose.",
    });
    const response = await deliverWebhook({
      url: loupe.webhookUrl,
      event: "pull_request_review_comment",
      payload: reviewCommentReplyEvent({ ...target, htmlBase: github.url }, pr, {
        id: replyId,
        inReplyTo: root.id,
        body: "@loupe this is intended: we bumped it on purpose.",
        login: "octocat",
      }),
      secret: SECRET,
    });
    expect(response.status).toBeLessThan(300);

    const answer = await loupe.until(
      () => github.threadReplies.find((r) => r.inReplyTo === root.id && r.user.type === "Bot"),
      "Loupe's answer in the thread",
    );
    expect(github.reactions.at(-1)).toEqual({
      owner: "octo",
      repo: "talk",
      commentId: replyId,
      content: "eyes",
    });
    expect(answer.body).toContain("the change to 2 is intended");
    expect(answer.body).toContain("Finding status: withdrawn.");
    expect(answer.body).toContain(`<!-- loupe:reply-to=${replyId} -->`);
    await loupe.until(() => (github.resolvedThreads.has(root.id) ? true : undefined), "the thread resolved");
    // The model was given the thread as data: the person's reply, quoted.
    const sent = JSON.stringify(provider.requests.at(-1)?.body);
    expect(sent).toContain("we bumped it on purpose");
    expect(github.checkRuns.filter((r) => r.repo === "talk")).toHaveLength(1); // a reply has no check run
    expect(loupe.output()).not.toContain(API_KEY);
    // The production precision signal: the review's one new finding, then its withdrawal (counted
    // when the job ends, just after the thread is resolved: its log line says it has).
    await loupe.until(
      () => (loupe.output().includes('"event":"reply_ended"') ? true : undefined),
      "the reply's end",
    );
    const metrics = await (await fetch(`${loupe.url}/metrics`)).text();
    expect(metrics).toMatch(/^loupe_findings_total\{event="posted"\} 1$/m);
    expect(metrics).toMatch(/^loupe_findings_total\{event="withdrawn"\} 1$/m);
    expect(metrics).not.toContain("octo/talk");
  });

  it("`@loupe pause` from a collaborator who can only read: asked about, then nothing", async () => {
    const pr = github.addPullRequest({ owner: "octo", repo: "talk", number: 4, headRef: "change" });
    const payload = issueCommentEvent({ ...target, htmlBase: github.url }, pr, 31338, "@loupe pause");
    payload.comment.user.login = "reader";
    payload.comment.author_association = "COLLABORATOR";
    const before = github.requests.length;
    const reactions = github.reactions.length;
    const response = await deliverWebhook({
      url: loupe.webhookUrl,
      event: "issue_comment",
      payload,
      secret: SECRET,
    });
    expect(response.status).toBeLessThan(300);
    await loupe.until(
      () => (loupe.output().includes('"comment":31338') ? true : undefined),
      "the comment's log line",
    );
    const asked = github.requests.slice(before).map((r) => `${r.method} ${r.url.split("?")[0]}`);
    expect(asked.filter((r) => !r.endsWith("/access_tokens"))).toEqual([
      "GET /api/v3/repos/octo/talk/collaborators/reader/permission",
    ]);
    expect(github.reactions).toHaveLength(reactions);
  });
});
