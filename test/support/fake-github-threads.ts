// Review threads in the fake GitHub: a thread is a review comment with its replies. REST reads
// one comment and adds replies (`POST /pulls/{n}/comments/{id}/replies`, authored by the App's
// bot like every write with its token); GraphQL (`POST /api/graphql`) lists a pull request's
// reviewThreads and resolves one, in the shapes GitHub's GraphQL API returns (a bot named by its
// slug, `__typename: "Bot"`). A person's reply is added by the test, as if typed on github.com.

import type { StoredComment, StoredReview } from "./fake-github-review-store.ts";
import type { ApiReply, FakeRepository, FakeState } from "./fake-github-routes.ts";
import { error } from "./fake-github-routes.ts";

export interface ThreadReply {
  readonly id: number;
  readonly owner: string;
  readonly repo: string;
  readonly pullNumber: number;
  readonly inReplyTo: number;
  readonly body: string;
  readonly user: { readonly login: string; readonly type: "User" | "Bot" };
}

export interface ThreadState {
  readonly threadReplies: ThreadReply[];
  /** Root comment ids of resolved threads. */
  readonly resolvedThreads: Set<number>;
  /** Who resolved each resolved thread (by root comment id), as GraphQL names them. */
  readonly threadResolvers: Map<number, string>;
  /** Reactions people added to review comments on github.com (Loupe's own are `reactions`). */
  readonly personReactions: PersonReaction[];
}

export interface PersonReaction {
  readonly commentId: number;
  readonly login: string;
  readonly content: string;
  readonly createdAt: string;
}

/** A person resolves (or unresolves) a thread on github.com. */
export function setThreadResolved(state: ThreadState, rootId: number, login: string | null): void {
  if (login === null) {
    state.resolvedThreads.delete(rootId);
    state.threadResolvers.delete(rootId);
  } else {
    state.resolvedThreads.add(rootId);
    state.threadResolvers.set(rootId, login);
  }
}

const BOT = { login: "loupe[bot]", type: "Bot" as const };

function roots(state: FakeState, owner: string, repo: string, pullNumber?: number) {
  return state.reviews
    .filter((r) => r.owner === owner && r.repo === repo && r.state !== "PENDING")
    .filter((r) => pullNumber === undefined || r.pullNumber === pullNumber)
    .flatMap((review) => review.comments.map((comment) => ({ review, comment })));
}

function commentJson(review: StoredReview, comment: StoredComment) {
  return {
    ...comment,
    user: { ...BOT, id: 9001 },
    pull_request_review_id: review.id,
    commit_id: review.commitId,
  };
}

/** GET /pulls/comments/{id}, POST /pulls/{n}/comments/{id}/replies; null when not a thread route. */
export function threadRestRoute(
  state: FakeState,
  repository: FakeRepository,
  request: { readonly method: string; readonly rest: string; readonly body: Record<string, unknown> },
): ApiReply | null {
  const { owner, repo } = repository;
  const get = request.method === "GET" ? /^\/pulls\/comments\/(\d+)$/.exec(request.rest) : null;
  if (get) {
    const id = Number(get[1]);
    const root = roots(state, owner, repo).find((r) => r.comment.id === id);
    if (root) return { status: 200, body: commentJson(root.review, root.comment) };
    const reply = state.threadReplies.find((r) => r.id === id && r.owner === owner && r.repo === repo);
    if (reply)
      return {
        status: 200,
        body: { id, body: reply.body, user: reply.user, in_reply_to_id: reply.inReplyTo },
      };
    return error(404, "Not Found");
  }
  const post =
    request.method === "POST" ? /^\/pulls\/(\d+)\/comments\/(\d+)\/replies$/.exec(request.rest) : null;
  if (!post) return null;
  const pullNumber = Number(post[1]);
  const rootId = Number(post[2]);
  if (!roots(state, owner, repo, pullNumber).some((r) => r.comment.id === rootId))
    return error(404, "Not Found");
  const body = request.body.body;
  if (typeof body !== "string" || body === "")
    return error(422, "Validation Failed", { errors: ["Body can't be blank"] });
  if (body.length > 65536)
    return error(422, "Validation Failed", { errors: ["Body is too long (maximum is 65536 characters)"] });
  const reply: ThreadReply = {
    id: state.nextId++,
    owner,
    repo,
    pullNumber,
    inReplyTo: rootId,
    body,
    user: BOT,
  };
  state.threadReplies.push(reply);
  return { status: 201, body: { id: reply.id, body, user: { ...BOT, id: 9001 }, in_reply_to_id: rootId } };
}

/** A person's reply in the thread of `rootId`, as typed on github.com; returns its id. */
export function addPersonReply(
  state: FakeState,
  input: { owner: string; repo: string; pullNumber: number; rootId: number; login: string; body: string },
): number {
  const id = state.nextId++;
  state.threadReplies.push({
    id,
    owner: input.owner,
    repo: input.repo,
    pullNumber: input.pullNumber,
    inReplyTo: input.rootId,
    body: input.body,
    user: { login: input.login, type: "User" },
  });
  return id;
}

const graphAuthor = (user: { login: string; type: string }) =>
  user.type === "Bot"
    ? { login: user.login.replace(/\[bot\]$/, ""), __typename: "Bot" }
    : { login: user.login, __typename: "User" };

/** Who resolved a thread, as GraphQL names them: Loupe by its slug and type Bot, a person as a User. */
function resolverOf(state: FakeState, rootId: number) {
  const login = state.threadResolvers.get(rootId) ?? BOT.login;
  return graphAuthor(login === BOT.login ? BOT : { login, type: "User" });
}

/** POST /api/graphql for an installation: reviewThreads, and resolveReviewThread. */
export function graphqlRoute(state: FakeState, installationId: number, text: string): ApiReply {
  let request: { query?: unknown; variables?: Record<string, unknown> };
  try {
    request = JSON.parse(text) as typeof request;
  } catch {
    return error(400, "Problems parsing JSON");
  }
  const query = String(request.query ?? "");
  const variables = request.variables ?? {};
  if (query.includes("resolveReviewThread")) {
    const rootId = Number(/^PRRT_(\d+)$/.exec(String(variables.threadId))?.[1]);
    if (!state.reviews.some((r) => r.comments.some((c) => c.id === rootId))) {
      return {
        status: 200,
        body: { data: null, errors: [{ type: "NOT_FOUND", message: "Could not resolve to a node" }] },
      };
    }
    state.resolvedThreads.add(rootId);
    state.threadResolvers.set(rootId, BOT.login);
    return {
      status: 200,
      body: { data: { resolveReviewThread: { thread: { id: variables.threadId, isResolved: true } } } },
    };
  }
  if (!query.includes("reviewThreads"))
    return { status: 200, body: { errors: [{ message: "Unsupported query" }] } };
  const owner = String(variables.owner);
  const repo = String(variables.repo);
  const repository = state.repositories.get(`${owner}/${repo}`);
  if (repository === undefined || repository.installationId !== installationId) {
    return {
      status: 200,
      body: {
        data: { repository: null },
        errors: [{ type: "NOT_FOUND", message: "Could not resolve to a Repository" }],
      },
    };
  }
  const nodes = roots(state, owner, repo, Number(variables.number)).map(({ comment }) => ({
    id: `PRRT_${comment.id}`,
    isResolved: state.resolvedThreads.has(comment.id),
    resolvedBy: state.resolvedThreads.has(comment.id) ? resolverOf(state, comment.id) : null,
    root: {
      nodes: [
        {
          reactions: {
            nodes: state.personReactions
              .filter((r) => r.commentId === comment.id && r.content === "-1")
              .slice(0, 20)
              .map((r) => ({ createdAt: r.createdAt, user: { login: r.login, __typename: "User" } })),
          },
        },
      ],
    },
    isOutdated: false,
    path: comment.path,
    line: comment.line,
    startLine: comment.start_line,
    comments: {
      nodes: [
        { databaseId: comment.id, body: comment.body, author: graphAuthor(BOT) },
        ...state.threadReplies
          .filter((r) => r.inReplyTo === comment.id)
          .map((r) => ({ databaseId: r.id, body: r.body, author: graphAuthor(r.user) })),
      ],
    },
  }));
  return {
    status: 200,
    body: {
      data: {
        repository: {
          pullRequest: { reviewThreads: { pageInfo: { hasNextPage: false, endCursor: null }, nodes } },
        },
      },
    },
  };
}
