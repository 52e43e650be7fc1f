// Review threads over GraphQL, through a real Octokit and a real HTTP server: pages followed by
// cursor, each answer (megabytes of comment bodies here) parsed a piece at a time, GitHub
// Enterprise's endpoint beside its /api/v3, and an answer with GraphQL errors a clear failure.

import { afterEach, describe, expect, it } from "@jest/globals";
import { listReviewThreads } from "../../../../src/forges/github/review-threads.ts";
import {
  type Answer,
  type GitHubAnswerServer,
  startGitHubAnswerServer,
} from "../../../support/github-answer-server.ts";

const PR = { owner: "o", repo: "r", pullNumber: 7 };

function thread(n: number) {
  return {
    id: `T_${n}`,
    isResolved: false,
    isOutdated: n % 2 === 0,
    path: "src/a.ts",
    line: n + 1,
    startLine: null,
    comments: {
      nodes: [
        {
          databaseId: n * 10,
          body: `finding ${n} ${"ü".repeat(8000)}`,
          author: { login: "loupe-test", __typename: "Bot" },
        },
        {
          databaseId: n * 10 + 1,
          body: "@loupe-test is this fixed?",
          author: { login: "octocat", __typename: "User" },
        },
      ],
    },
  };
}

function page(nodes: unknown[], endCursor: string | null): Answer {
  return {
    body: JSON.stringify({
      data: {
        repository: {
          pullRequest: { reviewThreads: { pageInfo: { hasNextPage: endCursor !== null, endCursor }, nodes } },
        },
      },
    }),
  };
}

let server: GitHubAnswerServer | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe("listReviewThreads", () => {
  it("reads every page by cursor, at /graphql beside the REST API", async () => {
    server = await startGitHubAnswerServer((request) => {
      if (request.method !== "POST" || request.url.pathname !== "/graphql")
        return { status: 404, body: "{}" };
      const { variables } = JSON.parse(request.body) as {
        variables: { cursor: string | null; number: number };
      };
      expect(variables.number).toBe(7);
      return variables.cursor === null
        ? page(
            Array.from({ length: 100 }, (_, n) => thread(n)),
            "c1",
          )
        : page([thread(100)], null);
    });
    const threads = await listReviewThreads(server.octokit(), PR);
    expect(threads).toHaveLength(101);
    // In the port's words: GraphQL's type `Bot` is a bot account.
    const comments = thread(42).comments.nodes.map(({ author, ...comment }) => ({
      ...comment,
      author: { login: author.login, isBot: author.__typename === "Bot" },
    }));
    expect(threads[42]).toEqual({ ...thread(42), comments });
    expect(server.requests.map((r) => JSON.parse(r.body).variables)).toEqual([
      { owner: "o", repo: "r", number: 7, cursor: null },
      { owner: "o", repo: "r", number: 7, cursor: "c1" },
    ]);
  });

  it("asks GitHub Enterprise at /api/graphql", async () => {
    server = await startGitHubAnswerServer((request) =>
      request.url.pathname === "/api/graphql" ? page([thread(1)], null) : { status: 404, body: "{}" },
    );
    const threads = await listReviewThreads(server.octokit("/api/v3"), PR);
    expect(threads.map((t) => t.id)).toEqual(["T_1"]);
  });

  it("an answer with GraphQL errors is a failure that says them", async () => {
    server = await startGitHubAnswerServer(() => ({
      body: JSON.stringify({
        data: null,
        errors: [{ message: "Could not resolve to a PullRequest with the number of 7." }],
      }),
    }));
    await expect(listReviewThreads(server.octokit(), PR)).rejects.toMatchObject({
      code: "github_request_failed",
      message:
        "GitHub's page of the pull request's review threads has errors: Could not resolve to a PullRequest with the number of 7.",
    });
  });

  it("an answer cut off mid-body is a failure, not fewer threads", async () => {
    server = await startGitHubAnswerServer(() => {
      const whole = page([thread(1), thread(2)], null).body;
      return { body: whole.slice(0, whole.indexOf("T_2")) };
    });
    await expect(listReviewThreads(server.octokit(), PR)).rejects.toMatchObject({
      code: "github_request_failed",
      message: expect.stringContaining("is not valid JSON"),
    });
  });
});
