// One reply job: a person mentioned Loupe in one of Loupe's review threads. In named steps:
// the pull request at its current head, the thread (Loupe's and not yet answered), the workspace,
// the reply loop, the reply in the thread, and the thread resolved when the finding is fixed or
// withdrawn. A reply has no check run: it is about one finding, not a verdict on a commit, and a
// check run per question would crowd the commit's checks with re-run buttons that mean nothing.
// What a check run would say goes in the thread instead: the reply states the finding's status
// and what the loop spent, and a job that ends without a reply posts why.

import { locateReply } from "../conversation/locate-reply.ts";
import { isBotComment } from "../conversation/review-thread.ts";
import { redactSecrets } from "../domain/redact.ts";
import { comparePullRequest } from "../github/compare.ts";
import { installationToken } from "../github/installation-token.ts";
import { listReviewThreads, resolveReviewThread } from "../github/review-threads.ts";
import type { JobEnvironment } from "../jobs/job-environment.ts";
import type { ThreadReply } from "../llm/reply-schema.ts";
import type { ToolLoopResult } from "../llm/types.ts";
import { describeFailure } from "../pipeline/describe-failure.ts";
import { errorDetail } from "../log/error-detail.ts";
import { workerStopOf } from "../pipeline/stopped-review.ts";
import { renderReplyFailure, renderThreadReply } from "../review/render-reply.ts";
import type { Workspace, WorkspaceHandle } from "../workspace/types.ts";
import type { ThreadReplyRequest } from "./handle-comment.ts";
import type { ReplyEnding, ReplyOutcome } from "./reply-ending.ts";

export interface RunReplyOptions<W extends WorkspaceHandle = Workspace> extends JobEnvironment<W> {
  readonly request: ThreadReplyRequest;
  readonly now?: () => number;
  /** Told once when the job ends: the log line and the metrics. */
  readonly onEnded?: (ending: ReplyEnding) => void;
}

export async function runReply<W extends WorkspaceHandle>(
  options: RunReplyOptions<W>,
): Promise<ReplyOutcome> {
  const now = options.now ?? Date.now;
  const started = now();
  const { outcome, result } = await answerThread(options).catch(async (error: unknown) => ({
    outcome: options.signal.aborted ? ({ kind: "cancelled" } as const) : await failed(options, error),
    result: null,
  }));
  options.onEnded?.({ outcome, request: options.request, result, durationMs: now() - started });
  return outcome;
}

interface Answered {
  readonly outcome: ReplyOutcome;
  /** What the loop spent, for the log line and the metrics; null when it never ran. */
  readonly result: ToolLoopResult<ThreadReply> | null;
}

/** The steps of a reply; the token is forgotten and the workspace removed however they end. */
async function answerThread<W extends WorkspaceHandle>(options: RunReplyOptions<W>): Promise<Answered> {
  const context = await threadContext(options);
  if (context.kind === "skipped") return { outcome: context, result: null };
  await using token = await forgottenAtEnd(options);
  const workspace = await fetchWorkspace(options, context, token.value);
  await using _workspace = {
    [Symbol.asyncDispose]: () =>
      workspace.handle.dispose().catch(() => options.log.warn({}, "workspace dispose failed")),
  };
  const result = await askModel(options, context, workspace);
  if (result.termination_reason === "cancelled") return { outcome: { kind: "cancelled" }, result };
  return { outcome: await publishReply(options, context, result), result };
}

function postReply(options: RunReplyOptions<WorkspaceHandle>, body: string) {
  const { request } = options;
  return options.octokit.rest.pulls.createReplyForReviewComment({
    owner: request.owner,
    repo: request.repo,
    pull_number: request.pullNumber,
    comment_id: request.rootCommentId,
    body,
  });
}

/** Something failed outside the loop: the person is told, in the thread, and it is logged. */
async function failed(options: RunReplyOptions<WorkspaceHandle>, error: unknown): Promise<ReplyOutcome> {
  // A worker stopped for memory or time has a reason of its own, whose sentence says it all.
  const stopped = workerStopOf(error);
  const reason = stopped ?? "error";
  const detail = stopped === null ? redactSecrets(describeFailure(error)).replace(/`/g, "") : null;
  options.log.warn(
    { comment: options.request.replyCommentId, error: errorDetail(error) },
    "reply ended early",
  );
  const body = renderReplyFailure({ reason, detail, answering: options.request.replyCommentId });
  await postReply(options, body).catch(() => options.log.warn({}, "the failure reply could not be posted"));
  return { kind: "failed", reason };
}

type ThreadContext =
  | { readonly kind: "skipped"; readonly reason: Extract<ReplyOutcome, { kind: "skipped" }>["reason"] }
  | {
      readonly kind: "thread";
      readonly pr: PullData;
      readonly botLogin: string;
      readonly located: Extract<ReturnType<typeof locateReply>, { kind: "found" }>;
    };

interface PullData {
  readonly html_url: string;
  readonly title: string;
  readonly head: { readonly sha: string };
  readonly base: { readonly sha: string };
}

/** 1–2. The pull request at its current head, and the thread: Loupe's, still there, not answered yet. */
async function threadContext(options: RunReplyOptions<WorkspaceHandle>): Promise<ThreadContext> {
  const { request, octokit } = options;
  const repoRef = { owner: request.owner, repo: request.repo };
  const { data: pr } = await octokit.rest.pulls.get({ ...repoRef, pull_number: request.pullNumber });
  if (pr.state !== "open") return { kind: "skipped", reason: "closed" };
  const botLogin = await options.botLogin();
  const threads = await listReviewThreads(octokit, { ...repoRef, pullNumber: request.pullNumber });
  const located = locateReply(threads, request, botLogin);
  if (located.kind === "skip") return { kind: "skipped", reason: located.reason };
  return { kind: "thread", pr, botLogin, located };
}

/** The installation token, redacted from every output until the reply's work is over. */
async function forgottenAtEnd(
  options: RunReplyOptions<WorkspaceHandle>,
): Promise<AsyncDisposable & { readonly value: string }> {
  const { token, release } = await installationToken(options.octokit);
  return { value: token, [Symbol.asyncDispose]: async () => release() };
}

/** 3. The merge-base and the head, fetched as a review fetches them (the tools read that snapshot). */
async function fetchWorkspace<W extends WorkspaceHandle>(
  options: RunReplyOptions<W>,
  context: Extract<ThreadContext, { kind: "thread" }>,
  token: string,
): Promise<{ readonly handle: W; readonly mergeBaseSha: string }> {
  const { request, octokit, config } = options;
  const comparison = await comparePullRequest(octokit, {
    owner: request.owner,
    repo: request.repo,
    pullNumber: request.pullNumber,
    baseSha: context.pr.base.sha,
    headSha: context.pr.head.sha,
  });
  const workspace = await options.ports.fetchWorkspace({
    url: `${config.gitBaseUrl}/${request.owner}/${request.repo}.git`,
    headSha: context.pr.head.sha,
    mergeBaseSha: comparison.mergeBaseSha,
    baseSha: context.pr.base.sha,
    pullNumber: request.pullNumber,
    token,
    signal: options.signal,
  });
  return { handle: workspace, mergeBaseSha: comparison.mergeBaseSha };
}

/** 4. The reply loop, given the thread and the anchored code as untrusted data. */
function askModel<W extends WorkspaceHandle>(
  options: RunReplyOptions<W>,
  context: Extract<ThreadContext, { kind: "thread" }>,
  workspace: { readonly handle: W; readonly mergeBaseSha: string },
): Promise<ToolLoopResult<ThreadReply>> {
  const { request } = options;
  const { pr, located, botLogin } = context;
  const { thread } = located;
  return options.ports.runReplyLoop({
    view: workspace.handle,
    signal: options.signal,
    prompt: {
      repository: `${request.owner}/${request.repo}`,
      pullRequest: { number: request.pullNumber, url: pr.html_url, title: pr.title },
      mergeBaseSha: workspace.mergeBaseSha,
      headSha: pr.head.sha,
      finding: {
        path: thread.path,
        line: thread.line,
        startLine: thread.startLine,
        body: located.finding.body,
      },
      replies: located.conversation.map((comment) => ({
        author: comment.author?.login ?? "ghost",
        fromLoupe: isBotComment(comment, botLogin),
        body: comment.body,
      })),
    },
  });
}

/**
 * 5. The reply, or why there is none; 6. the thread resolved when the finding no longer stands,
 * unless it is already, or a person wrote after the reply Loupe answered (still waiting for one).
 */
async function publishReply(
  options: RunReplyOptions<WorkspaceHandle>,
  context: Extract<ThreadContext, { kind: "thread" }>,
  result: ToolLoopResult<ThreadReply>,
): Promise<ReplyOutcome> {
  const { request, config } = options;
  const answer = result.answer;
  if (answer === null) {
    const detail = result.validation_failures?.[0] ?? null;
    const reason = result.termination_reason;
    await postReply(options, renderReplyFailure({ reason, detail, answering: request.replyCommentId }));
    return { kind: "failed", reason };
  }
  await postReply(
    options,
    renderThreadReply({
      reply: answer.reply,
      status: answer.finding_status,
      spend: { rounds: result.rounds, toolCalls: result.tool_calls },
      answering: request.replyCommentId,
      repository: { owner: request.owner, repo: request.repo, host: config.gitHost },
      replier:
        context.located.conversation.find((c) => c.databaseId === request.replyCommentId)?.author?.login ??
        null,
    }),
  );
  const { thread, laterHumanReply } = context.located;
  const resolve = answer.finding_status !== "still_valid" && !thread.isResolved && !laterHumanReply;
  const resolved =
    resolve &&
    (await resolveReviewThread(options.octokit, thread.id).then(
      () => true,
      (error: unknown) => {
        options.log.warn({ error: errorDetail(error) }, "thread not resolved");
        return false;
      },
    ));
  return { kind: "answered", status: answer.finding_status, resolved };
}
