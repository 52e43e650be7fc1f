// Review threads over GraphQL: REST has no notion of a thread or of resolving one. Threads are
// read page by page (100 per page, their first 100 comments each, each page parsed a piece at a
// time) and resolved one mutation at a time, so a failure leaves the rest untouched and is
// counted, not thrown.

import type { Actor, ReviewThread } from "../../conversation/review-thread.ts";
import { graphqlInSlices } from "./graphql-in-slices.ts";
import type { GitHubClient, RepoRef } from "./octokit.ts";

const THREADS_QUERY = `query($owner: String!, $repo: String!, $number: Int!, $cursor: String) {
  repository(owner: $owner, name: $repo) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $cursor) {
        pageInfo { hasNextPage endCursor }
        nodes {
          id isResolved isOutdated path line startLine resolvedBy { login __typename }
          comments(first: 100) { nodes { databaseId body author { login __typename } } }
          root: comments(first: 1) {
            nodes { reactions(content: THUMBS_DOWN, first: 20) { nodes { createdAt user { login __typename } } } }
          }
        }
      }
    }
  }
}`;

const RESOLVE_MUTATION = `mutation($threadId: ID!) {
  resolveReviewThread(input: { threadId: $threadId }) { thread { id isResolved } }
}`;

/** Enough for any pull request a person can still read; a guard against a cursor that never ends. */
const MAX_PAGES = 20;

/** Someone as GraphQL names them: a `User`, a `Bot`, … */
interface GraphQLActor {
  readonly login: string;
  readonly __typename?: string;
}

interface ThreadsPage {
  repository: {
    pullRequest: {
      reviewThreads: {
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        nodes: Array<
          Omit<ReviewThread, "comments" | "thumbsDown" | "resolvedBy"> & {
            resolvedBy?: GraphQLActor | null;
            comments: {
              nodes: Array<{ databaseId: number | null; body: string; author: GraphQLActor | null }>;
            };
            root?: {
              nodes: Array<{
                reactions?: { nodes: Array<{ createdAt: string | null; user: GraphQLActor | null }> };
              }>;
            };
          }
        >;
      };
    } | null;
  } | null;
}

/** The port's actor: GraphQL's type `Bot` is a bot account. */
const actor = (named: GraphQLActor | null): Actor | null =>
  named === null ? null : { login: named.login, isBot: named.__typename === "Bot" };

export type GraphQLClient = Pick<GitHubClient, "graphql" | "request">;

export async function listReviewThreads(
  octokit: GraphQLClient,
  input: RepoRef & { readonly pullNumber: number },
): Promise<ReviewThread[]> {
  const threads: ReviewThread[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const data: ThreadsPage = await graphqlInSlices<ThreadsPage>(
      octokit,
      THREADS_QUERY,
      { owner: input.owner, repo: input.repo, number: input.pullNumber, cursor },
      "GitHub's page of the pull request's review threads",
    );
    const connection = data.repository?.pullRequest?.reviewThreads;
    if (!connection) break;
    for (const { root, resolvedBy, ...node } of connection.nodes) {
      const thumbsDown = root?.nodes[0]?.reactions?.nodes;
      threads.push({
        ...node,
        comments: node.comments.nodes.map((comment) => ({ ...comment, author: actor(comment.author) })),
        ...(resolvedBy === undefined ? {} : { resolvedBy: actor(resolvedBy) }),
        ...(thumbsDown === undefined
          ? {}
          : {
              thumbsDown: thumbsDown.map((down) => ({ createdAt: down.createdAt, user: actor(down.user) })),
            }),
      });
    }
    if (!connection.pageInfo.hasNextPage || connection.pageInfo.endCursor === null) break;
    cursor = connection.pageInfo.endCursor;
  }
  return threads;
}

export async function resolveReviewThread(octokit: GraphQLClient, threadId: string): Promise<void> {
  await octokit.graphql(RESOLVE_MUTATION, { threadId });
}
