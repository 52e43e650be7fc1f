// GitHub's own example objects (@octokit/webhooks-examples) moved onto the fake: every URL points
// at the fake's host, the repository and owner are the fake's, and the PR's number, SHAs, refs,
// title and body are the real ones of the fixture repository. The fake serves the same object
// from GET /pulls/:n that the webhook carries, as GitHub does.

import { type ExamplePayload, webhookExample } from "./webhook-examples.ts";

export interface PayloadTarget {
  /** e.g. http://127.0.0.1:PORT */
  readonly htmlBase: string;
  readonly owner: string;
  readonly repo: string;
  readonly defaultBranch: string;
  readonly installationId: number;
}

/** `octo/<repo>` on a fake GitHub, as the worlds create it: default branch main, installation 1. */
export function fakeGitHubTarget(github: { readonly url: string }, repo: string): PayloadTarget {
  return { htmlBase: github.url, owner: "octo", repo, defaultBranch: "main", installationId: 1 };
}

export interface PullRequestFacts {
  readonly number: number;
  readonly headSha: string;
  readonly headRef: string;
  readonly baseRef: string;
  readonly baseSha: string;
  readonly title: string;
  readonly body: string | null;
  readonly draft?: boolean;
  readonly state?: "open" | "closed";
}

const EXAMPLE_REPO = "Codertocat/Hello-World";

/** The example moved onto the target: URLs, owner and repository names rewritten as text. */
function relocate(example: ExamplePayload, target: PayloadTarget): ExamplePayload {
  const text = JSON.stringify(example)
    .replaceAll("https://api.github.com", `${target.htmlBase}/api/v3`)
    .replaceAll("https://github.com", target.htmlBase)
    .replaceAll("http://github.com", target.htmlBase)
    .replaceAll("git://github.com", target.htmlBase)
    .replaceAll("git@github.com:", `${target.htmlBase}/`)
    .replaceAll(EXAMPLE_REPO, `${target.owner}/${target.repo}`)
    .replaceAll('"Hello-World"', JSON.stringify(target.repo));
  return JSON.parse(text);
}

/** A `pull_request` object (as in webhooks and GET /pulls/:n) for the fixture PR. */
export function pullRequestObject(target: PayloadTarget, pr: PullRequestFacts): ExamplePayload {
  const payload = relocate(webhookExample("pull_request", "opened"), target);
  const object = payload.pull_request;
  const repository = repositoryObject(target);
  const api = `${target.htmlBase}/api/v3/repos/${target.owner}/${target.repo}`;
  Object.assign(object, {
    number: pr.number,
    url: `${api}/pulls/${pr.number}`,
    html_url: `${target.htmlBase}/${target.owner}/${target.repo}/pull/${pr.number}`,
    state: pr.state ?? "open",
    title: pr.title,
    body: pr.body,
    draft: pr.draft ?? false,
    statuses_url: `${api}/statuses/${pr.headSha}`,
  });
  Object.assign(object.head, {
    ref: pr.headRef,
    sha: pr.headSha,
    label: `${target.owner}:${pr.headRef}`,
    repo: repository,
  });
  Object.assign(object.base, {
    ref: pr.baseRef,
    sha: pr.baseSha,
    label: `${target.owner}:${pr.baseRef}`,
    repo: repository,
  });
  return object;
}

export function repositoryObject(target: PayloadTarget): ExamplePayload {
  const repository = relocate(webhookExample("pull_request", "opened"), target).repository;
  repository.owner.login = target.owner;
  return Object.assign(repository, {
    name: target.repo,
    full_name: `${target.owner}/${target.repo}`,
    default_branch: target.defaultBranch,
    master_branch: target.defaultBranch,
    clone_url: `${target.htmlBase}/${target.owner}/${target.repo}.git`,
  });
}

/**
 * A webhook payload for `pull_request.<action>` (opened, synchronize, reopened, labeled, …) taken
 * from GitHub's example for that action, with the fixture PR, repository and installation.
 */
export function pullRequestEvent(
  action: string,
  target: PayloadTarget,
  pr: PullRequestFacts,
): ExamplePayload {
  const payload = relocate(webhookExample("pull_request", action), target);
  payload.number = pr.number;
  payload.pull_request = pullRequestObject(target, pr);
  payload.repository = repositoryObject(target);
  payload.installation = {
    id: target.installationId,
    node_id: `MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9u${target.installationId}`,
  };
  return payload;
}

/**
 * A `push` to a branch of the repository (GitHub's example, moved onto the repository and its
 * installation); `ref` as GitHub sends it, e.g. refs/heads/main.
 */
export function pushEvent(target: PayloadTarget, ref: string): ExamplePayload {
  const payload = relocate(webhookExample("push", undefined), target);
  payload.ref = ref;
  // A push's repository is its own shape (owner with name and login, times as numbers): moved, not replaced.
  Object.assign(payload.repository, {
    name: target.repo,
    full_name: `${target.owner}/${target.repo}`,
    default_branch: target.defaultBranch,
    master_branch: target.defaultBranch,
  });
  Object.assign(payload.repository.owner, { login: target.owner, name: target.owner });
  payload.installation = {
    id: target.installationId,
    node_id: `MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9u${target.installationId}`,
  };
  return payload;
}

/** issue_comment.created (GitHub's example, moved onto the fixture pull request) by a maintainer. */
export function issueCommentEvent(
  target: PayloadTarget,
  pr: PullRequestFacts,
  commentId: number,
  body: string,
): ExamplePayload {
  const payload = relocate(webhookExample("issue_comment", "created"), target);
  payload.issue.number = pr.number;
  payload.issue.pull_request = {
    url: `${target.htmlBase}/api/v3/repos/${target.owner}/${target.repo}/pulls/${pr.number}`,
    html_url: `${target.htmlBase}/${target.owner}/${target.repo}/pull/${pr.number}`,
  };
  payload.comment.id = commentId;
  payload.comment.body = body;
  payload.comment.author_association = "OWNER";
  payload.repository = repositoryObject(target);
  payload.installation = {
    id: target.installationId,
    node_id: `MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9u${target.installationId}`,
  };
  return payload;
}

/**
 * pull_request_review_comment.created (GitHub's example, moved onto the fixture pull request): a
 * maintainer's reply to the review comment `inReplyTo`.
 */
export function reviewCommentReplyEvent(
  target: PayloadTarget,
  pr: PullRequestFacts,
  comment: { readonly id: number; readonly inReplyTo: number; readonly body: string; readonly login: string },
): ExamplePayload {
  const payload = relocate(webhookExample("pull_request_review_comment", "created"), target);
  payload.pull_request = pullRequestObject(target, pr);
  payload.comment.id = comment.id;
  payload.comment.in_reply_to_id = comment.inReplyTo;
  payload.comment.body = comment.body;
  payload.comment.author_association = "OWNER";
  payload.comment.user.login = comment.login;
  payload.comment.user.type = "User";
  payload.sender = { ...payload.comment.user };
  payload.repository = repositoryObject(target);
  payload.installation = {
    id: target.installationId,
    node_id: `MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9u${target.installationId}`,
  };
  return payload;
}
