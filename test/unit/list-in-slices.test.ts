// Every page of a GitHub list through a real Octokit (Probot's) and a real HTTP server on
// 127.0.0.1 that pages the way GitHub does: the Link header's `next` followed, each page's body
// (hundreds of kilobytes here) parsed a piece at a time, and a page that is not a list, or is cut
// off, a clear error rather than a silently shorter history. A server rather than nock: nock's
// fetch interception never ends a body that is read a turn at a time once it passes 64 KiB.

import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "@jest/globals";
import nock from "nock";
import { ProbotOctokit } from "probot";
import type { GitHubClient } from "../../src/github/octokit.ts";
import { listReviewsInSlices } from "../../src/github/posted-fingerprints.ts";

const PATH = "/repos/o/r/pulls/7/reviews";

function review(id: number) {
  return { id, user: { login: "loupe-test[bot]", type: "Bot" }, body: `review ${id} ${"é".repeat(2000)}` };
}

let server: http.Server | undefined;

/** Serves `answer(page)` for GET PATH?page=N; returns an Octokit pointed at it. */
async function serve(
  answer: (page: number, base: string) => { body: string; link?: string },
): Promise<GitHubClient> {
  nock.enableNetConnect("127.0.0.1");
  server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method !== "GET" || url.pathname !== PATH || url.searchParams.get("per_page") !== "100") {
      response.writeHead(404).end("{}");
      return;
    }
    const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
    const { body, link } = answer(Number(url.searchParams.get("page") ?? "1"), base);
    response.writeHead(200, { "content-type": "application/json", ...(link ? { link } : {}) }).end(body);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return new ProbotOctokit({ baseUrl, auth: { token: "t" }, retry: { enabled: false } }) as GitHubClient;
}

afterEach(async () => {
  if (server !== undefined) {
    server.close();
    await once(server, "close");
    server = undefined;
  }
});

const PR = { owner: "o", repo: "r", pullNumber: 7 };

describe("listReviewsInSlices", () => {
  it("follows the Link header's next page to the end, in order", async () => {
    const pages = [
      Array.from({ length: 100 }, (_, i) => review(i)),
      Array.from({ length: 100 }, (_, i) => review(100 + i)),
      [review(200)],
    ];
    const served: number[] = [];
    const octokit = await serve((page, base) => {
      served.push(page);
      return {
        body: JSON.stringify(pages[page - 1]),
        ...(page < pages.length
          ? { link: `<${base}${PATH}?per_page=100&page=${page + 1}>; rel="next"` }
          : {}),
      };
    });

    const reviews = await listReviewsInSlices(octokit, PR);
    expect(reviews.map((r) => r.id)).toEqual(Array.from({ length: 201 }, (_, i) => i));
    expect(reviews[150]).toEqual(review(150));
    expect(served).toEqual([1, 2, 3]);
  });

  it("says which list was not a list", async () => {
    const octokit = await serve(() => ({ body: JSON.stringify({ message: "not a list" }) }));
    await expect(listReviewsInSlices(octokit, PR)).rejects.toMatchObject({
      code: "github_request_failed",
      message: "GitHub's list of the pull request's reviews is not a list",
    });
  });

  it("says so when a page is cut off mid-body", async () => {
    const whole = JSON.stringify(Array.from({ length: 100 }, (_, i) => review(i)));
    const octokit = await serve(() => ({ body: whole.slice(0, whole.lastIndexOf(",") + 1) }));
    await expect(listReviewsInSlices(octokit, PR)).rejects.toMatchObject({
      code: "github_request_failed",
      message: expect.stringContaining("GitHub's list of the pull request's reviews is not valid JSON"),
    });
  });
});
