// Pull request reviews in the fake: creating one (validated against the PR's own hunks at the
// review's commit, all-or-nothing like GitHub), and listing reviews and review comments in the
// shapes GitHub returns, so an App can find what it already posted.

import { compareCommits, resolveCommit } from "./fake-github-compare.ts";
import type { PullRequestFacts } from "./fake-github-payloads.ts";
import {
  REVIEW_DOCUMENTATION_URL,
  type ReviewCommentInput,
  validateReviewComments,
} from "./fake-github-reviews.ts";
import type { ApiReply, FakeRepository, FakeState } from "./fake-github-routes.ts";

export interface StoredComment {
  readonly id: number;
  readonly path: string;
  readonly body: string;
  readonly line: number | null;
  readonly side: string;
  readonly start_line: number | null;
  readonly start_side: string | null;
}

export interface StoredReview {
  readonly id: number;
  readonly owner: string;
  readonly repo: string;
  readonly pullNumber: number;
  readonly commitId: string;
  readonly body: string;
  readonly event: string | null;
  readonly state: "COMMENTED" | "APPROVED" | "CHANGES_REQUESTED" | "PENDING";
  readonly comments: readonly StoredComment[];
}

const STATE = { COMMENT: "COMMENTED", APPROVE: "APPROVED", REQUEST_CHANGES: "CHANGES_REQUESTED" } as const;
const BOT = { login: "loupe[bot]", id: 9001, type: "Bot" };

const unprocessable = (errors: string[]): ApiReply => ({
  status: 422,
  body: {
    message: "Unprocessable Entity",
    errors,
    documentation_url: REVIEW_DOCUMENTATION_URL,
    status: "422",
  },
});

export async function createReview(
  state: FakeState,
  repository: FakeRepository,
  pr: PullRequestFacts,
  body: Record<string, unknown>,
): Promise<ApiReply> {
  const where = { gitdir: repository.gitdir, home: state.home };
  const event = body.event ?? null;
  if (event !== null && event !== "COMMENT" && event !== "APPROVE" && event !== "REQUEST_CHANGES") {
    return unprocessable([`Event ${JSON.stringify(event)} is not valid`]);
  }
  const text = typeof body.body === "string" ? body.body : "";
  if ((event === "COMMENT" || event === "REQUEST_CHANGES") && text === "") {
    return unprocessable(["Body can't be blank"]);
  }
  if (text.length > 65536) return unprocessable(["Body is too long (maximum is 65536 characters)"]);
  const mine = (r: StoredReview) =>
    r.owner === repository.owner && r.repo === repository.repo && r.pullNumber === pr.number;
  if (state.reviews.some((r) => mine(r) && r.state === "PENDING")) {
    return unprocessable(["User can only have one pending review per pull request"]);
  }
  const commitId = typeof body.commit_id === "string" ? body.commit_id : pr.headSha;
  if ((await resolveCommit(where, commitId)) !== commitId)
    return unprocessable([`No commit found for SHA: ${commitId}`]);
  const comments = Array.isArray(body.comments) ? (body.comments as ReviewCommentInput[]) : [];
  if (comments.length > 0) {
    const { files } = await compareCommits(where, `refs/heads/${pr.baseRef}`, commitId);
    const problems = validateReviewComments(comments, files);
    if (problems.length > 0) return unprocessable(problems);
  }
  const review: StoredReview = {
    id: state.nextId++,
    owner: repository.owner,
    repo: repository.repo,
    pullNumber: pr.number,
    commitId,
    body: text,
    event: event as string | null,
    state: event === null ? "PENDING" : STATE[event as keyof typeof STATE],
    comments: comments.map((c) => ({
      id: state.nextId++,
      path: String(c.path),
      body: String(c.body),
      line: typeof c.line === "number" ? c.line : null,
      side: typeof c.side === "string" ? c.side : "RIGHT",
      start_line: typeof c.start_line === "number" ? c.start_line : null,
      start_side: typeof c.start_side === "string" ? c.start_side : null,
    })),
  };
  state.reviews.push(review);
  return { status: 200, body: reviewJson(state, review) };
}

function reviewJson(state: FakeState, review: StoredReview): Record<string, unknown> {
  return {
    id: review.id,
    node_id: `PRR_${review.id}`,
    user: BOT,
    body: review.body,
    state: review.state,
    commit_id: review.commitId,
    html_url: `${state.htmlBase}/${review.owner}/${review.repo}/pull/${review.pullNumber}#pullrequestreview-${review.id}`,
    pull_request_url: `${state.apiBase}/repos/${review.owner}/${review.repo}/pulls/${review.pullNumber}`,
    submitted_at: review.state === "PENDING" ? null : new Date().toISOString(),
    author_association: "NONE",
  };
}

export function listReviews(state: FakeState, repository: FakeRepository, pullNumber: number): unknown[] {
  return state.reviews
    .filter((r) => r.owner === repository.owner && r.repo === repository.repo && r.pullNumber === pullNumber)
    .map((r) => reviewJson(state, r));
}

export function listReviewComments(
  state: FakeState,
  repository: FakeRepository,
  pullNumber: number,
): unknown[] {
  return state.reviews
    .filter((r) => r.owner === repository.owner && r.repo === repository.repo && r.pullNumber === pullNumber)
    .filter((r) => r.state !== "PENDING")
    .flatMap((r) =>
      r.comments.map((c) => ({
        ...c,
        pull_request_review_id: r.id,
        commit_id: r.commitId,
        original_commit_id: r.commitId,
        user: BOT,
        original_line: c.line,
        subject_type: "line",
      })),
    );
}
