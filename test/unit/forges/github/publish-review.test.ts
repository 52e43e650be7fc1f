// publishReview over a tiny fake Octokit: only `listReviews` (its body read as a byte stream) and
// `createReview` are used, so a fake at that level is the honest one (the Probot integration
// tests cover the wire).

import { Readable } from "node:stream";
import { describe, expect, it } from "@jest/globals";
import type { InlineComment } from "../../../../src/forges/github/github-comment.ts";
import type { GitHubClient } from "../../../../src/forges/github/octokit.ts";
import { publishReview } from "../../../../src/forges/github/publish-review.ts";

const BOT = "loupe-test[bot]";
const HEAD = "a".repeat(40);
const MARKER = `<!-- loupe:review sha=${HEAD} run=5 -->`;
const COMMENT: InlineComment = { path: "src/a.ts", line: 3, side: "RIGHT", body: "inline" };

function httpError(status: number): Error {
  return Object.assign(new Error(`HTTP ${status}`), { status, response: { headers: {} } });
}

type Listing = { id: number; user: { login: string; type: string }; body: string }[];

function fakeOctokit(listings: Listing[], answers: Array<number | Error>) {
  const created: Record<string, unknown>[] = [];
  let lists = 0;
  const client = {
    rest: {
      pulls: {
        listReviews: async () => {
          lists++;
          const page = JSON.stringify(listings.shift() ?? []);
          return { data: Readable.from([Buffer.from(page)]), headers: {} };
        },
        createReview: async (params: Record<string, unknown>) => {
          created.push(params);
          const answer = answers.shift();
          if (answer === undefined) throw new Error("unexpected createReview");
          if (answer instanceof Error) throw answer;
          return { data: { id: answer } };
        },
      },
    },
  };
  return { octokit: client as unknown as GitHubClient, created, lists: () => lists };
}

const publish = (octokit: GitHubClient, comments: InlineComment[] = [COMMENT]) =>
  publishReview(octokit, {
    owner: "o",
    repo: "r",
    pullNumber: 2,
    headSha: HEAD,
    marker: MARKER,
    botLogin: BOT,
    body: `body ${MARKER}`,
    comments,
    allInBody: () => `everything ${MARKER}`,
    retry: { sleep: async () => {}, now: () => 0, deadline: 60_000 },
  });

const byLoupe = (id: number, body: string) => ({ id, user: { login: BOT, type: "Bot" }, body });

describe("publishReview", () => {
  it("posts once, as a COMMENT on the head SHA, with Octokit's retry off for this POST", async () => {
    const f = fakeOctokit([[]], [41]);
    await expect(publish(f.octokit)).resolves.toEqual({ kind: "posted", reviewId: 41, allInBody: false });
    expect(f.created).toEqual([
      expect.objectContaining({
        event: "COMMENT",
        commit_id: HEAD,
        body: `body ${MARKER}`,
        comments: [COMMENT],
        request: { retries: 0 },
      }),
    ]);
  });

  it("marker already there (by Loupe) → no post", async () => {
    const f = fakeOctokit([[byLoupe(7, `x ${MARKER}`)]], []);
    await expect(publish(f.octokit)).resolves.toEqual({ kind: "already_posted", reviewId: 7 });
    expect(f.created).toEqual([]);
  });

  it("the marker in another author's review does not count", async () => {
    const f = fakeOctokit([[{ id: 8, user: { login: "mimic[bot]", type: "Bot" }, body: MARKER }]], [42]);
    await expect(publish(f.octokit)).resolves.toMatchObject({ kind: "posted", reviewId: 42 });
  });

  it("5xx, then the marker is found → no second post", async () => {
    const f = fakeOctokit([[], [byLoupe(9, MARKER)]], [httpError(502)]);
    await expect(publish(f.octokit)).resolves.toEqual({ kind: "posted", reviewId: 9, allInBody: false });
    expect(f.created).toHaveLength(1);
    expect(f.lists()).toBe(2);
  });

  it("5xx, then the marker is absent → exactly one more post", async () => {
    const f = fakeOctokit([[], []], [httpError(500), 43]);
    await expect(publish(f.octokit)).resolves.toEqual({ kind: "posted", reviewId: 43, allInBody: false });
    expect(f.created).toHaveLength(2);
    expect(f.created[1]).toEqual(f.created[0]);
  });

  it("5xx twice → the error goes up (no third post)", async () => {
    const f = fakeOctokit([[], []], [httpError(502), httpError(503)]);
    await expect(publish(f.octokit)).rejects.toMatchObject({ status: 503 });
    expect(f.created).toHaveLength(2);
  });

  it("422 → one more post with every finding in the body and no inline comment", async () => {
    const f = fakeOctokit([[]], [httpError(422), 44]);
    await expect(publish(f.octokit)).resolves.toEqual({ kind: "posted", reviewId: 44, allInBody: true });
    expect(f.created[1]).toMatchObject({ body: `everything ${MARKER}`, comments: [] });
  });

  it("422 with no inline comments to drop, or a 403 → the error goes up", async () => {
    const f = fakeOctokit([[]], [httpError(422)]);
    await expect(publish(f.octokit, [])).rejects.toMatchObject({ status: 422 });
    const g = fakeOctokit([[]], [httpError(403)]);
    await expect(publish(g.octokit)).rejects.toMatchObject({ status: 403 });
    expect(g.created).toHaveLength(1);
  });
});
