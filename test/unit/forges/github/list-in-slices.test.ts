// Every page of a GitHub list through a real Octokit (Probot's) and a real HTTP server on
// 127.0.0.1 that pages the way GitHub does: the Link header's `next` followed, each page's body
// (hundreds of kilobytes here) parsed a piece at a time, and a page that is not a list, or is cut
// off, a clear error rather than a silently shorter history.

import { afterEach, describe, expect, it } from "@jest/globals";
import { listReviewsInSlices } from "../../../../src/forges/github/history-records.ts";
import {
  type Answer,
  type GitHubAnswerServer,
  startGitHubAnswerServer,
} from "../../../support/github-answer-server.ts";

const PATH = "/repos/o/r/pulls/7/reviews";
const PR = { owner: "o", repo: "r", pullNumber: 7 };

function review(id: number) {
  return { id, user: { login: "loupe-test[bot]", type: "Bot" }, body: `review ${id} ${"é".repeat(2000)}` };
}

let server: GitHubAnswerServer | undefined;

/** Serves `answer(page)` for GET PATH?per_page=100&page=N. */
async function serve(answer: (page: number, base: string) => Answer): Promise<GitHubAnswerServer> {
  server = await startGitHubAnswerServer((request) => {
    if (
      request.method !== "GET" ||
      request.url.pathname !== PATH ||
      request.url.searchParams.get("per_page") !== "100"
    ) {
      return { status: 404, body: "{}" };
    }
    return answer(Number(request.url.searchParams.get("page") ?? "1"), request.base);
  });
  return server;
}

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe("listReviewsInSlices", () => {
  it("follows the Link header's next page to the end, in order", async () => {
    const pages = [
      Array.from({ length: 100 }, (_, i) => review(i)),
      Array.from({ length: 100 }, (_, i) => review(100 + i)),
      [review(200)],
    ];
    const github = await serve((page, base) => ({
      body: JSON.stringify(pages[page - 1]),
      ...(page < pages.length
        ? { headers: { link: `<${base}${PATH}?per_page=100&page=${page + 1}>; rel="next"` } }
        : {}),
    }));

    const reviews = await listReviewsInSlices(github.octokit(), PR);
    expect(reviews.map((r) => r.id)).toEqual(Array.from({ length: 201 }, (_, i) => i));
    expect(reviews[150]).toEqual(review(150));
    expect(github.requests.map((r) => r.url.searchParams.get("page"))).toEqual([null, "2", "3"]);
  });

  it("says which list was not a list", async () => {
    const github = await serve(() => ({ body: JSON.stringify({ message: "not a list" }) }));
    await expect(listReviewsInSlices(github.octokit(), PR)).rejects.toMatchObject({
      code: "github_request_failed",
      message: "GitHub's list of the pull request's reviews is not a list",
    });
  });

  it("says so when a page is cut off mid-body", async () => {
    const whole = JSON.stringify(Array.from({ length: 100 }, (_, i) => review(i)));
    const github = await serve(() => ({ body: whole.slice(0, whole.lastIndexOf(",") + 1) }));
    await expect(listReviewsInSlices(github.octokit(), PR)).rejects.toMatchObject({
      code: "github_request_failed",
      message: expect.stringContaining("GitHub's list of the pull request's reviews is not valid JSON"),
    });
  });
});
