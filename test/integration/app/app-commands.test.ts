// Commands in the pull request conversation, through Probot: real issue_comment and
// pull_request_review_comment example payloads (adapted onto PR #2), nock for GitHub, and for the
// review commands the whole review (local git server, scripted provider).

import { describe, expect, it } from "@jest/globals";
import nock from "nock";
import { PAUSE_LABEL } from "../../../src/conversation/pause-state.ts";
import {
  BOT_LOGIN,
  expectCleanEnd,
  INSTALLATION,
  mockPublish,
  mockReviewStart,
  OWNER,
  PR,
  pullRequestData,
  pullRequestPayload,
  REPO,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { finding, review, stopTurn } from "../../support/chat-turns.ts";
import { issueCommentPayload, reviewCommentPayload } from "../../support/conversation-payloads.ts";
import { mockGitHub } from "../../support/github-mock.ts";

const app = useAppScenario({ harness: { botLogin: BOT_LOGIN } });
const github = () => mockGitHub(OWNER, REPO, INSTALLATION).token();
/** The examples' commenter; GitHub's permission endpoint is asked about every commenter. */
const MAINTAINER = "Codertocat";
/** A review's first calls for a later event of the same Probot (its installation token is cached). */
function reviewStartCached(config: string | null = null) {
  const gh = mockGitHub(OWNER, REPO, INSTALLATION).createCheckRun(1).updateCheckRun(1);
  if (config === null) gh.configMissing();
  else gh.configFile(config);
  return gh.compare(`${app.fx.baseSha}...${app.fx.headSha}`, app.fx.compareData());
}

describe("commands", () => {
  it("`@loupe-test review` is acknowledged with 👀 and reviews the pull request's current head", async () => {
    const h = await app.start([{ body: stopTurn(review([finding()])) }]);
    const payload = issueCommentPayload("Pushed a fix. @loupe-test review");
    const gh = mockReviewStart(app.fx, { headSha: app.fx.headSha });
    gh.permission(MAINTAINER, "admin")
      .reaction("issue_comment", payload.comment.id)
      .pullsGet(PR, pullRequestData(app.fx))
      .pullsGet(PR, pullRequestData(app.fx));
    mockPublish(gh).createReview(PR);

    await h.receive("issue_comment", payload);
    await h.drain();

    expect(gh.posted(`/issues/comments/${payload.comment.id}/reactions`)).toEqual([{ content: "eyes" }]);
    expect(gh.reviewsPosted()).toHaveLength(1);
    const summary = (gh.completion().output as { summary: string }).summary;
    expect(summary).toContain("full review: Loupe has not reviewed this pull request before");
    const first = app.provider.requests[0]!.body as { messages: { content: string }[] };
    expect(first.messages[1]!.content).toContain("Review scope: the whole pull request");
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("`@loupe-test full review` reviews everything again, saying it was asked", async () => {
    const h = await app.start([{ body: stopTurn(review([])) }]);
    const payload = issueCommentPayload("@loupe-test full review");
    const gh = mockReviewStart(app.fx);
    gh.permission(MAINTAINER, "admin")
      .reaction("issue_comment", payload.comment.id)
      .pullsGet(PR, pullRequestData(app.fx))
      .pullsGet(PR, pullRequestData(app.fx));
    gh.listReviewComments(PR).listReviews(PR);

    await h.receive("issue_comment", payload);
    await h.drain();

    expect((gh.completion().output as { summary: string }).summary).toContain(
      "full review: a full review was asked for",
    );
    expectCleanEnd(h, app.provider, [gh]);
  });

  it.each([
    ["help", "@loupe-test help", "Loupe's commands:"],
    ["an unknown command", "@loupe-test please have a look", "Loupe did not recognise that command."],
  ])("%s gets the help in a comment", async (_name, body, heading) => {
    const h = await app.start([]);
    const payload = issueCommentPayload(body);
    const gh = github()
      .permission(MAINTAINER, "admin")
      .reaction("issue_comment", payload.comment.id)
      .issueComment(PR);

    await h.receive("issue_comment", payload);

    const [reply] = gh.posted(`/issues/${PR}/comments`);
    expect(reply!.body).toContain(heading);
    expect(reply!.body).toContain("`@loupe-test full review`");
    expect(reply!.body).not.toContain("please have a look"); // nothing of the comment is echoed
    expectCleanEnd(h, null, [gh]);
  });

  it("pause and resume survive a restart: the label on GitHub holds the state, not the process", async () => {
    // Process 1: a maintainer pauses.
    const first = await app.start([]);
    const pause = issueCommentPayload("@loupe-test pause");
    const gh1 = github()
      .permission(MAINTAINER, "admin")
      .reaction("issue_comment", pause.comment.id)
      .addLabel(PR)
      .issueComment(PR);
    await first.receive("issue_comment", pause);
    expect(gh1.posted(`/issues/${PR}/labels`)).toEqual([{ labels: [PAUSE_LABEL] }]);
    expect(gh1.posted(`/issues/${PR}/comments`)[0]!.body).toContain("paused");
    expectCleanEnd(first, null, [gh1]);
    nock.cleanAll();
    await app.provider.stop();

    // Process 2 (a restart, nothing in memory): a push to the paused pull request is not reviewed.
    const second = await app.start([]);
    const push = pullRequestPayload(app.fx, "synchronize");
    push.pull_request.labels = [{ id: 1, name: PAUSE_LABEL, color: "ededed", default: false }];
    const gh2 = github().createCheckRun(1).updateCheckRun(1).configMissing();
    await second.receive("pull_request", push);
    await second.drain();
    expect(gh2.completion()).toMatchObject({ conclusion: "skipped" });
    expect((gh2.completion().output as { summary: string }).summary).toContain(PAUSE_LABEL);
    // The exact commands to copy, with the App's own handle.
    expect((gh2.completion().output as { summary: string }).summary).toContain(
      "a comment `@loupe-test resume` turns them back on, a comment `@loupe-test review` reviews now.",
    );
    expect(app.provider.requests).toHaveLength(0);
    expectCleanEnd(second, app.provider, [gh2]);
    nock.cleanAll();
    await app.provider.stop();

    // Process 3: resume removes the label; the next push (without it) is reviewed again.
    const third = await app.start([{ body: stopTurn(review([])) }]);
    const resume = issueCommentPayload("@loupe-test resume");
    const gh3 = github()
      .permission(MAINTAINER, "admin")
      .reaction("issue_comment", resume.comment.id)
      .removeLabel(PR, PAUSE_LABEL)
      .issueComment(PR);
    await third.receive("issue_comment", resume);
    expect(gh3.posted(`/issues/${PR}/comments`)[0]!.body).toContain("back on");
    const gh4 = reviewStartCached().listReviewComments(PR).listReviews(PR);
    await third.receive("pull_request", pullRequestPayload(app.fx, "synchronize"));
    await third.drain();
    expect(gh4.completion()).toMatchObject({ conclusion: "success" });
    expect(app.provider.requests).toHaveLength(1);
    expectCleanEnd(third, app.provider, [gh3, gh4]);
  });

  it("with `auto_review: false` a push gets a skipped check run, and a command still reviews", async () => {
    const h = await app.start([{ body: stopTurn(review([])) }]);
    const gh = github().createCheckRun(1).updateCheckRun(1).configFile("auto_review: false\n");
    await h.receive("pull_request", pullRequestPayload(app.fx, "synchronize"));
    await h.drain();
    expect(gh.completion()).toMatchObject({ conclusion: "skipped" });
    expect((gh.completion().output as { summary: string }).summary).toContain("`auto_review` is off");
    expect((gh.completion().output as { summary: string }).summary).toContain(
      "Loupe reviews when asked (a comment `@loupe-test review`, or the Re-run button).",
    );
    expectCleanEnd(h, app.provider, [gh]);
    nock.cleanAll();

    const payload = issueCommentPayload("@loupe-test review");
    const asked = reviewStartCached("auto_review: false\n");
    asked
      .permission(MAINTAINER, "admin")
      .reaction("issue_comment", payload.comment.id)
      .pullsGet(PR, pullRequestData(app.fx))
      .pullsGet(PR, pullRequestData(app.fx));
    asked.listReviewComments(PR).listReviews(PR);
    await h.receive("issue_comment", payload);
    await h.drain();
    expect(asked.completion()).toMatchObject({ conclusion: "success" });
    expectCleanEnd(h, app.provider, [asked]);
  });
});

describe("who is answered", () => {
  it("a command from someone who cannot write gets nothing: no reaction, no reply, no review", async () => {
    const h = await app.start([]);
    const payload = issueCommentPayload("@loupe-test full review", {
      login: "drive-by",
      association: "NONE",
    });
    const gh = github().permission("drive-by", "read");
    await h.receive("issue_comment", payload);
    await h.drain();
    expect(gh.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      "POST /app/installations/1/access_tokens",
      `GET /repos/${OWNER}/${REPO}/collaborators/drive-by/permission`,
    ]);
    expectCleanEnd(h, null, [gh]);
  });

  it("an outside contributor with write permission (granted directly) is answered", async () => {
    const h = await app.start([]);
    const payload = issueCommentPayload("@loupe-test help", { login: "helper", association: "CONTRIBUTOR" });
    const gh = github()
      .permission("helper", "write")
      .reaction("issue_comment", payload.comment.id)
      .issueComment(PR);
    await h.receive("issue_comment", payload);
    expect(gh.posted(`/issues/${PR}/comments`)).toHaveLength(1);
    expectCleanEnd(h, null, [gh]);
  });

  it.each([
    ["another bot, even as OWNER", { login: "dependabot[bot]", type: "Bot" as const, association: "OWNER" }],
    ["Loupe itself", { login: BOT_LOGIN, type: "Bot" as const, association: "NONE" }],
  ])("%s is never answered", async (_name, who) => {
    const h = await app.start([]);
    await h.receive("issue_comment", issueCommentPayload("@loupe-test review", who));
    await h.receive("pull_request_review_comment", reviewCommentPayload("@loupe-test why?", 1, who));
    await h.drain();
    expect(nock.pendingMocks()).toEqual([]);
    expect(h.logs().filter((l) => l.includes('"comment handled"') && l.includes('"ignored"'))).toHaveLength(
      2,
    );
  });

  it("a mention in a review thread Loupe did not start is left to the people in it", async () => {
    const h = await app.start([]);
    const payload = reviewCommentPayload("@loupe-test what do you think?", 4242);
    const gh = github()
      .permission(MAINTAINER, "admin")
      .reviewComment(4242, {
        body: "A person's remark",
        user: { login: "octocat", type: "User" },
      });
    await h.receive("pull_request_review_comment", payload);
    expect(gh.calls.filter((c) => c.method !== "GET" && !c.path.includes("access_tokens"))).toEqual([]);
    expectCleanEnd(h, null, [gh]);
  });

  it("an edited comment is not read again", async () => {
    const h = await app.start([]);
    const payload = issueCommentPayload("@loupe-test review");
    payload.action = "edited";
    await h.receive("issue_comment", payload);
    expect(nock.pendingMocks()).toEqual([]);
  });
});
