// Posting the review exactly once, through Probot: 422 → everything in the body, 5xx → look for
// the hidden marker before posting again, a secondary rate limit → wait Retry-After (injected
// sleep), and "already posted" means posted by Loupe's own bot login (looked up with GET /app).

import { describe, expect, it } from "@jest/globals";
import { fingerprintFinding } from "../../../src/review/fingerprint.ts";
import {
  BOT_LOGIN,
  expectCleanEnd,
  mockPublish,
  mockReviewStart,
  OWNER,
  PR,
  pullRequestPayload,
  REPO,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { finding, review, stopTurn } from "../../support/chat-turns.ts";
import { mockGitHub } from "../../support/github-mock.ts";
import { longReview } from "../../support/long-review.ts";
import type { ProbotHarness } from "../../support/probot-harness.ts";

const app = useAppScenario();

const TITLE = "Validation occurs after the write";

/** One finding to post; no bot login given, so Loupe looks it up with GET /app. */
const harness = () => app.start([{ body: stopTurn(review([finding({ line: 2, title: TITLE })])) }]);

const marker = () => `<!-- loupe:review sha=${app.fx.headSha} run=1 -->`;
const run = async (h: ProbotHarness) => {
  await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
  await h.drain();
};

describe("publishing the review once", () => {
  it("422 on createReview → a second createReview with every finding in the body and no comments", async () => {
    const h = await harness();
    const gh = mockReviewStart(app.fx, { app: true });
    mockPublish(gh)
      .createReview(PR, [
        422,
        {
          message: "Unprocessable Entity",
          errors: ["Pull request review thread line must be part of the diff"],
        },
      ])
      .createReview(PR);
    await run(h);
    const [first, second] = gh.reviewsPosted();
    expect((first!.comments as unknown[]).length).toBe(1);
    expect(second!.comments).toEqual([]);
    expect(second!.body).toContain(TITLE);
    expect(second!.body).toContain("#### Findings");
    expect(second!.body).toContain(marker());
    const done = gh.completion();
    expect(done.conclusion).toBe("success");
    expect((done.output as { summary: string }).summary).toContain("GitHub refused the inline comments");
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("422 on both posts → the check run says GitHub's status, the operator's log says which request and why", async () => {
    const h = await harness();
    const gh = mockReviewStart(app.fx, { app: true });
    const refused = [
      422,
      { message: "Validation Failed", errors: ["Body is too long (maximum is 65536 characters)"] },
    ];
    mockPublish(gh)
      .createReview(PR, refused as [number, unknown])
      .createReview(PR, refused as [number, unknown]);
    await run(h);
    const done = gh.completion();
    expect(done.conclusion).toBe("neutral");
    const summary = (done.output as { summary: string }).summary;
    expect(summary).toContain("The review could not be posted: GitHub answered HTTP 422.");
    expect(summary).not.toContain("maximum is 65536"); // GitHub's words stay in the operator's log
    const logged = h.logs().find((line) => line.includes('"review not posted"'));
    expect(logged).toContain(
      `HTTP 422 POST https://api.github.com/repos/${OWNER}/${REPO}/pulls/${PR}/reviews: Validation Failed`,
    );
    expect(logged).toContain("Body is too long (maximum is 65536 characters)");
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("502 on createReview, and the marker is there when Loupe looks again → no second post", async () => {
    const h = await harness();
    const gh = mockReviewStart(app.fx, { app: true });
    mockPublish(gh).createReview(PR, [502, { message: "Bad Gateway" }]);
    gh.listReviews(PR, [
      { id: 55, user: { login: BOT_LOGIN, type: "Bot" }, body: `### Loupe review\n\n${marker()}` },
    ]);
    await run(h);
    expect(gh.reviewsPosted()).toHaveLength(1);
    expect(gh.completion().conclusion).toBe("success");
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("502 on createReview and no marker (only another bot's copy of it) → exactly one more post", async () => {
    const h = await harness();
    const gh = mockReviewStart(app.fx, { app: true });
    mockPublish(gh).createReview(PR, [502, { message: "Bad Gateway" }]);
    gh.listReviews(PR, [{ id: 56, user: { login: "mimic[bot]", type: "Bot" }, body: marker() }]);
    gh.createReview(PR);
    await run(h);
    const posted = gh.reviewsPosted();
    expect(posted).toHaveLength(2);
    expect(posted[1]).toEqual(posted[0]);
    expect(gh.completion().conclusion).toBe("success");
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("a secondary rate limit (403 + Retry-After) on createReview → waits that long, then posts", async () => {
    const h = await harness();
    const gh = mockReviewStart(app.fx, { app: true });
    mockPublish(gh);
    gh.scope
      .post(`/repos/${OWNER}/${REPO}/pulls/${PR}/reviews`)
      .reply(403, { message: "You have exceeded a secondary rate limit" }, { "retry-after": "7" });
    gh.createReview(PR);
    await run(h);
    expect(h.sleeps).toEqual([7000]);
    expect(gh.reviewsPosted()).toHaveLength(1); // the refused attempt is not recorded by the mock
    expect(gh.completion().conclusion).toBe("success");
    expectCleanEnd(h, app.provider, [gh]);
  });
});

describe("a review longer than GitHub takes in one body", () => {
  const LIMIT = 65536;
  /** 100 findings of about 9 KB; the body Loupe renders for them ends just under the limit. */
  const tuned = (inline: number, allInBody: boolean) =>
    longReview({
      inline,
      allInBody,
      headSha: app.fx.headSha,
      checkRunId: 1,
      repository: { owner: OWNER, repo: REPO, host: "github.com" },
    });
  /** GitHub's answer to createReview: 422 for a body over its limit, as GitHub does. */
  const likeGitHub = (body: Record<string, unknown>): [number, unknown] =>
    String(body.body).length > LIMIT
      ? [422, { message: "Validation Failed", errors: [`Body is too long (maximum is ${LIMIT} characters)`] }]
      : [200, { id: 9001 }];
  const REVIEWED = /<!-- loupe:reviewed head=[0-9a-f]{40} base=[0-9a-f]{40} config=[0-9a-f]{16} -->$/;
  /** Within the limit with both markers, and exactly the body the publisher renders for them. */
  const expectWithinLimitsWithMarkers = (body: string, long: ReturnType<typeof tuned>) => {
    expect(body.length).toBeLessThanOrEqual(LIMIT);
    expect(body).toContain(marker());
    expect(body).toMatch(REVIEWED);
    expect(body).toMatch(/… \d+ more findings not shown/);
    expect(body.length).toBe(long.render([REVIEWED.exec(body)![0]]).length);
  };

  it("100 long findings outside the diff → one review within 65,536 characters, markers included", async () => {
    const long = tuned(0, false);
    const h = await app.start([{ body: stopTurn({ ...review(long.findings), summary: long.summary }) }]);
    const gh = mockReviewStart(app.fx, { app: true });
    mockPublish(gh).createReview(PR, likeGitHub);
    await run(h);
    const [posted, ...more] = gh.reviewsPosted();
    expect(more).toEqual([]);
    expect(posted!.comments).toEqual([]);
    expectWithinLimitsWithMarkers(String(posted!.body), long);
    expect(String(posted!.body)).toContain("#### Outside the diff");
    expect(gh.completion().conclusion).toBe("success");
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("inline comments refused (422) → the fallback with all 100 findings fits too, markers included", async () => {
    const long = tuned(1, true);
    const h = await app.start([{ body: stopTurn({ ...review(long.findings), summary: long.summary }) }]);
    const gh = mockReviewStart(app.fx, { app: true });
    mockPublish(gh)
      .createReview(PR, [422, { message: "Unprocessable Entity", errors: ["line must be part of the diff"] }])
      .createReview(PR, likeGitHub);
    await run(h);
    const [first, second] = gh.reviewsPosted();
    expect((first!.comments as unknown[]).length).toBe(1);
    expect(second!.comments).toEqual([]);
    expectWithinLimitsWithMarkers(String(second!.body), long);
    expect(String(second!.body)).toContain("#### Findings");
    const done = gh.completion();
    expect(done.conclusion).toBe("success");
    expect((done.output as { summary: string }).summary).toContain("GitHub refused the inline comments");
    expectCleanEnd(h, app.provider, [gh]);
  });
});

describe("secondary rate limits on other writes", () => {
  it("403 + Retry-After on creating the check run → waits, creates it, and the review goes on", async () => {
    const h = await harness();
    const gh = mockGitHub(OWNER, REPO, 1).token();
    gh.scope
      .post(`/repos/${OWNER}/${REPO}/check-runs`)
      .reply(403, { message: "You have exceeded a secondary rate limit" }, { "retry-after": "2" });
    gh.createCheckRun(1).updateCheckRun(1).configMissing();
    gh.compare(`${app.fx.baseSha}...${app.fx.headSha}`, app.fx.compareData()).app();
    mockPublish(gh).createReview(PR);
    await run(h);
    expect(h.sleeps).toEqual([2000]);
    expect(gh.completion().conclusion).toBe("success");
    expectCleanEnd(h, app.provider, [gh]);
  });
});

describe("already posted means posted by Loupe", () => {
  const fp = () => fingerprintFinding("src/service.ts", ["  db.write(record);"], TITLE);

  it("Loupe's own earlier comment with the fingerprint → the finding is not posted again", async () => {
    const h = await harness();
    const gh = mockReviewStart(app.fx, { app: true });
    gh.listReviewComments(PR, [
      { id: 1, user: { login: BOT_LOGIN, type: "Bot" }, body: `old <!-- loupe:fp=${fp()} -->` },
    ]);
    gh.listReviews(PR);
    await run(h);
    expect(gh.reviewsPosted()).toEqual([]);
    const done = gh.completion();
    expect(done.conclusion).toBe("success");
    expect((done.output as { summary: string }).summary).toContain("1 already posted earlier");
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("another bot's comment with the same fingerprint does not silence the finding", async () => {
    const h = await harness();
    const gh = mockReviewStart(app.fx, { app: true });
    gh.listReviewComments(PR, [
      { id: 1, user: { login: "mimic[bot]", type: "Bot" }, body: `<!-- loupe:fp=${fp()} -->` },
    ]);
    gh.listReviews(PR).listReviews(PR).createReview(PR);
    await run(h);
    expect(gh.reviewsPosted()).toHaveLength(1);
    expect(gh.calls.filter((c) => c.path === "/app")).toHaveLength(1);
    expectCleanEnd(h, app.provider, [gh]);
  });
});
