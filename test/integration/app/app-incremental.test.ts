// Reviews of what is new, and Loupe's fixed threads resolved, through Probot: a real
// pull_request.synchronize example payload after a second push, Loupe's earlier review (with its
// hidden reviewed marker) and review comment as GitHub lists them, GitHub's compare of the two heads,
// and GraphQL review threads, all with nock; the fetch and the model are real local servers.

import { describe, expect, it } from "@jest/globals";
import { parseRepoConfig } from "../../../src/config/repo-config.ts";
import { configDigest, reviewedMarker } from "../../../src/conversation/review-state.ts";
import { fingerprintMarker } from "../../../src/review/fingerprint.ts";
import { SERVICE_BASE } from "../../support/app-pull-request.ts";
import {
  BOT_LOGIN,
  expectCleanEnd,
  mockReviewStart,
  PR,
  pullRequestPayload,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { review, stopTurn } from "../../support/chat-turns.ts";

let secondHead = "";
// The fixing push: validation goes back before the write (lines 2-3 of src/service.ts change).
const app = useAppScenario({
  harness: { botLogin: BOT_LOGIN },
  beforePublish: (fx) => {
    secondHead = fx.push("src/service.ts", SERVICE_BASE);
  },
});

const loupe = { login: BOT_LOGIN, type: "Bot" };
const FP_FIXED = "1111111111111111";
const FP_DISPUTED = "2222222222222222";
const FP_ELSEWHERE = "3333333333333333";

function history() {
  const fx = app.fx;
  const digest = configDigest((parseRepoConfig(null) as { ok: true; config: unknown }).config);
  const marker = reviewedMarker({ headSha: fx.headSha, mergeBaseSha: fx.mergeBaseSha, configDigest: digest });
  return {
    reviews: [
      { id: 1, user: loupe, body: `Earlier review.\n${marker}`, submitted_at: "2026-01-01T00:00:00Z" },
    ],
    comments: [{ id: 11, user: loupe, body: `A finding ${fingerprintMarker(FP_FIXED)}` }],
  };
}

// GraphQL spells Loupe's login without "[bot]".
const byLoupe = (fp: string) => ({
  databaseId: 11,
  body: `finding ${fingerprintMarker(fp)}`,
  author: { login: "loupe-test", __typename: "Bot" },
});
const threads = [
  // On the lines the push rewrote: resolved.
  {
    id: "T_fixed",
    isResolved: false,
    isOutdated: false,
    path: "src/service.ts",
    line: 2,
    startLine: null,
    comments: [byLoupe(FP_FIXED)],
  },
  // Outdated too, but a person disagreed and Loupe has not answered: left open.
  {
    id: "T_disputed",
    isResolved: false,
    isOutdated: true,
    path: "src/service.ts",
    line: null,
    startLine: null,
    comments: [
      byLoupe(FP_DISPUTED),
      { databaseId: 12, body: "This is intended.", author: { login: "octocat", __typename: "User" } },
    ],
  },
  // A file the push did not touch: left open.
  {
    id: "T_elsewhere",
    isResolved: false,
    isOutdated: false,
    path: "src/util.ts",
    line: 1,
    startLine: null,
    comments: [byLoupe(FP_ELSEWHERE)],
  },
];

function mockThreads(gh: ReturnType<typeof mockReviewStart>, resolves: number) {
  const resolved: string[] = [];
  gh.graphql((query, variables) => {
    if (query.includes("resolveReviewThread")) {
      resolved.push(String(variables.threadId));
      return { resolveReviewThread: { thread: { id: variables.threadId, isResolved: true } } };
    }
    return {
      repository: {
        pullRequest: {
          reviewThreads: {
            pageInfo: { hasNextPage: false, endCursor: null },
            nodes: threads.map((t) => ({ ...t, comments: { nodes: t.comments } })),
          },
        },
      },
    };
  }, 1 + resolves);
  return resolved;
}

function mockSecondPush(headsStatus: "ahead" | "diverged") {
  const fx = app.fx;
  const gh = mockReviewStart(fx, { headSha: secondHead, compareData: fx.compareData(secondHead) });
  const { reviews, comments } = history();
  gh.listReviewComments(PR, comments).listReviews(PR, reviews);
  const diff = fx.repo.git("diff", "-U3", fx.headSha, secondHead, "--", "src/service.ts");
  gh.compare(`${fx.headSha}...${secondHead}`, {
    status: headsStatus,
    ahead_by: 1,
    behind_by: headsStatus === "ahead" ? 0 : 1,
    files: [
      {
        filename: "src/service.ts",
        status: "modified",
        additions: 1,
        deletions: 1,
        changes: 2,
        patch: diff.slice(diff.indexOf("@@")),
      },
    ],
  });
  return gh;
}

const firstMessage = () =>
  (app.provider.requests[0]!.body as { messages: { content: string }[] }).messages[1]!.content;
const summaryOf = (gh: ReturnType<typeof mockReviewStart>) =>
  (gh.completion().output as { summary: string }).summary;

describe("a push after Loupe's review", () => {
  it("fast-forward: an incremental review of the new commit, and the thread it fixed is resolved", async () => {
    const h = await app.start([{ body: stopTurn(review([])) }]);
    const gh = mockSecondPush("ahead");
    const resolved = mockThreads(gh, 1);

    await h.receive("pull_request", pullRequestPayload(app.fx, "synchronize", secondHead));
    await h.drain();

    const since = app.fx.headSha.slice(0, 7);
    expect(firstMessage()).toContain(`Review scope: INCREMENTAL (incremental: 1 commit since ${since})`);
    expect(firstMessage()).toContain('"path":"src/service.ts"');
    expect(firstMessage()).toMatch(/@@ -\d+,\d+ \+\d+,\d+ @@.*\\n[-+] {2}(db.write|validate)\(record\);/);
    expect(summaryOf(gh)).toContain(`incremental: 1 commit since ${since}`);
    expect(resolved).toEqual(["T_fixed"]);
    expect(summaryOf(gh)).toContain("Resolved 1 of Loupe's earlier thread whose finding no longer applies.");
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("force-push: a full review that says why, and no thread is resolved on GitHub's outdated flag alone when a person replied", async () => {
    const h = await app.start([{ body: stopTurn(review([])) }]);
    const gh = mockSecondPush("diverged");
    const resolved = mockThreads(gh, 0);

    await h.receive("pull_request", pullRequestPayload(app.fx, "synchronize", secondHead));
    await h.drain();

    const why = "full review: the last reviewed commit is not an ancestor of the head (force-push or rebase)";
    expect(firstMessage()).toContain(`Review scope: the whole pull request (${why})`);
    expect(firstMessage()).not.toContain("INCREMENTAL");
    expect(summaryOf(gh)).toContain(why);
    expect(resolved).toEqual([]);
    expect(summaryOf(gh)).not.toContain("Resolved");
    expectCleanEnd(h, app.provider, [gh]);
  });
});
