// Every event Loupe reviews on, from @octokit/webhooks-examples, through Probot into a completed
// check run — and the events it must ignore, which make no GitHub request at all. Adaptations of
// the examples: head/base SHAs → the fixture's; check_run/check_suite `app.id` → Loupe's (123);
// external_id → Loupe's `loupe:pr=N` where the example has none; the requested action's
// identifier → "rerun". Repository names and installation ids are the examples' own.

import { describe, expect, it } from "@jest/globals";
import {
  APP_ID,
  expectCleanEnd,
  mockReviewStart,
  OWNER,
  PR,
  pullRequestData,
  pullRequestPayload,
  REPO,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { review, stopTurn } from "../../support/chat-turns.ts";
import type { GitHubMock } from "../../support/github-mock.ts";
import { webhookExample } from "../../support/webhook-examples.ts";

const app = useAppScenario({
  repositories: [
    { names: [`${OWNER}/${REPO}`, "github/hello-world"], pullNumber: PR },
    { names: ["electron/electron"], pullNumber: 26764 },
  ],
  harness: { botLogin: "loupe-test[bot]" },
});

/** Every event here is reviewed clean (or not at all): one stop turn with no findings. */
const harness = () => app.start([{ body: stopTurn(review([], [])) }]);

/** A clean review (no findings, no notes): nothing is posted, the check run succeeds. */
function expectCleanReview(gh: GitHubMock): void {
  expect(gh.reviewsPosted()).toEqual([]);
  expect(gh.completion()).toMatchObject({ conclusion: "success", status: "completed" });
  expect((gh.completion().output as { title: string }).title).toBe("Loupe: no findings");
}

describe("pull_request events", () => {
  it.each(["opened", "reopened", "synchronize", "ready_for_review"])(
    "%s → a review of the head SHA",
    async (action) => {
      const h = await harness();
      const gh = mockReviewStart(app.fx).listReviewComments(PR).listReviews(PR);
      await h.receive("pull_request", pullRequestPayload(app.fx, action));
      await h.drain();
      expect(gh.calls.find((c) => c.path.endsWith("/check-runs"))!.body).toMatchObject({
        head_sha: app.fx.headSha,
      });
      expect(app.provider.requests).toHaveLength(1);
      expectCleanReview(gh);
      expectCleanEnd(h, app.provider, [gh]);
    },
  );
});

describe("re-run events", () => {
  it("check_run.rerequested of a fork PR (empty pull_requests[]) → PR from external_id, head from pulls.get", async () => {
    const h = await harness();
    const payload = webhookExample("check_run", "rerequested");
    expect(payload.check_run.pull_requests).toEqual([]); // GitHub's own example is the fork case
    payload.check_run.app.id = APP_ID;
    payload.check_run.head_sha = "0".repeat(40); // an older head: the re-run reviews the current one
    payload.check_run.external_id = `loupe:pr=${PR}`;
    const gh = mockReviewStart(app.fx, { owner: "github", repo: "hello-world", installation: 1 })
      .pullsGet(PR, pullRequestData(app.fx))
      .listReviewComments(PR)
      .listReviews(PR);
    await h.receive("check_run", payload);
    await h.drain();
    expect(gh.calls.find((c) => c.path.endsWith("/check-runs"))!.body).toMatchObject({
      head_sha: app.fx.headSha,
      external_id: `loupe:pr=${PR}`,
    });
    expectCleanReview(gh);
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("check_run.requested_action `rerun` → the PR from pull_requests[]", async () => {
    const h = await harness();
    const payload = webhookExample("check_run", "requested_action");
    payload.check_run.app.id = APP_ID;
    payload.requested_action.identifier = "rerun";
    const gh = mockReviewStart(app.fx, { owner: "electron", repo: "electron", installation: 690857 })
      .pullsGet(26764, pullRequestData(app.fx, { number: 26764 }))
      .listReviewComments(26764)
      .listReviews(26764);
    await h.receive("check_run", payload);
    await h.drain();
    expect(gh.calls.find((c) => c.path.endsWith("/check-runs"))!.body).toMatchObject({
      external_id: "loupe:pr=26764",
    });
    expectCleanReview(gh);
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("check_suite.rerequested → each PR of the suite", async () => {
    const h = await harness();
    const payload = webhookExample("check_suite", "rerequested");
    payload.check_suite.app.id = APP_ID;
    payload.check_suite.head_sha = app.fx.headSha;
    const gh = mockReviewStart(app.fx, { installation: 957387 })
      .pullsGet(PR, pullRequestData(app.fx))
      .listReviewComments(PR)
      .listReviews(PR);
    await h.receive("check_suite", payload);
    await h.drain();
    expectCleanReview(gh);
    expectCleanEnd(h, app.provider, [gh]);
  });
});

describe("deliveries skipped before a review: one info line with the reason", () => {
  it.each([
    [
      "closed",
      "pull_request_closed",
      (p: ReturnType<typeof pullRequestPayload>) => (p.pull_request.state = "closed"),
    ],
    [
      "no head",
      "no_pull_request",
      (p: ReturnType<typeof pullRequestPayload>) => (p.pull_request.head.sha = ""),
    ],
  ])("%s", async (_label, reason, adapt) => {
    const h = await harness();
    const payload = pullRequestPayload(app.fx, "opened");
    adapt(payload);
    await h.receive("pull_request", payload, "delivery-skip");
    await h.drain();
    const lines = h
      .logs()
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => String(l.msg).startsWith("delivery skipped"));
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, event: "pull_request.opened", delivery: "delivery-skip", reason }),
    ]);
    expect(app.provider.requests).toEqual([]);
    expectCleanEnd(h, app.provider, []);
  });
});

describe("events Loupe ignores (no GitHub request at all)", () => {
  const cases: [string, string, (p: ReturnType<typeof webhookExample>) => void][] = [
    ["check_run", "created", (p) => (p.check_run.app.id = APP_ID)],
    ["check_run", "completed", (p) => (p.check_run.app.id = APP_ID)],
    ["check_run", "rerequested", (p) => (p.check_run.external_id = `loupe:pr=${PR}`)], // another app's run
    ["check_run", "requested_action", (p) => (p.check_run.app.id = APP_ID)], // identifier "lgtm|26764"
    ["pull_request", "closed", () => {}],
    ["pull_request", "labeled", () => {}],
  ];
  it.each(cases)("%s.%s", async (name, action, adapt) => {
    const h = await harness();
    const payload = webhookExample(name, action);
    payload.installation ??= { id: 1 };
    adapt(payload);
    await h.receive(name, payload);
    await h.drain();
    expect(app.provider.requests).toEqual([]);
    expect(h.logs().some((l) => l.includes("POST https://api.github.com"))).toBe(false);
    expectCleanEnd(h, app.provider, []);
  });
});
