// One reply job: a person mentioned Loupe in one of Loupe's review threads. In numbered steps:
// the pull request at its current head, the thread (Loupe's and not yet answered), the workspace,
// the reply loop, the reply in the thread, and the thread resolved when the finding is fixed or
// withdrawn. A reply has no check run: it is about one finding, not a verdict on a commit, and a
// check run per question would crowd the commit's checks with re-run buttons that mean nothing.
// What a check run would say goes in the thread instead: the reply states the finding's status
// and what the loop spent, and a job that ends without a reply posts why.

import { describeFailure } from "../pipeline/describe-failure.ts";
import { errorDetail } from "../pipeline/error-detail.ts";
import { workerStopOf } from "../pipeline/stopped-review.ts";
import { comparePullRequest } from "../github/compare.ts";
import { listReviewThreads, resolveReviewThread } from "../github/review-threads.ts";
import type { JobEnvironment } from "../jobs/job-environment.ts";
import type { ThreadReply } from "../llm/reply-schema.ts";
import type { ToolLoopResult } from "../llm/types.ts";
import { redactSecrets, registerSecret } from "../domain/redact.ts";
import { renderReplyFailure, renderThreadReply } from "../review/render-reply.ts";
import type { Workspace, WorkspaceHandle } from "../workspace/types.ts";
import type { ThreadReplyRequest } from "./handle-comment.ts";
import { locateReply } from "../conversation/locate-reply.ts";
import type { ReplyEnding, ReplyOutcome } from "./reply-ending.ts";
import { isBotComment } from "../conversation/review-thread.ts";

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
  const job: JobState<W> = { workspace: null, releaseToken: () => {}, result: null };
  let outcome: ReplyOutcome = { kind: "failed", reason: "error" };
  try {
    outcome = await attempt(options, job);
  } catch (error) {
    outcome = options.signal.aborted ? { kind: "cancelled" } : await failed(options, error);
  } finally {
    await job.workspace?.dispose().catch(() => options.log.warn({}, "workspace dispose failed"));
    job.releaseToken();
    options.onEnded?.({ outcome, request: options.request, result: job.result, durationMs: now() - started });
  }
  return outcome;
}

interface JobState<W extends WorkspaceHandle> {
  workspace: W | null;
  releaseToken: () => void;
  result: ToolLoopResult<ThreadReply> | null;
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

async function attempt<W extends WorkspaceHandle>(
  options: RunReplyOptions<W>,
  job: JobState<W>,
): Promise<ReplyOutcome> {
  const { request, signal, octokit, ports, config } = options;
  const repoRef = { owner: request.owner, repo: request.repo };
  // 1. The pull request at its current head: a reply is about the code as it is now.
  const { data: pr } = await octokit.rest.pulls.get({ ...repoRef, pull_number: request.pullNumber });
  if (pr.state !== "open") return { kind: "skipped", reason: "closed" };
  // 2. The thread: Loupe's, still there, and not answered yet.
  const botLogin = await options.botLogin();
  const threads = await listReviewThreads(octokit, { ...repoRef, pullNumber: request.pullNumber });
  const located = locateReply(threads, request, botLogin);
  if (located.kind === "skip") return { kind: "skipped", reason: located.reason };
  const { thread } = located;
  // 3. The merge-base and the head, fetched as a review fetches them (the tools read that snapshot).
  const comparison = await comparePullRequest(octokit, {
    ...repoRef,
    pullNumber: request.pullNumber,
    baseSha: pr.base.sha,
    headSha: pr.head.sha,
  });
  const auth = (await octokit.auth({ type: "installation" })) as { token: string };
  job.releaseToken = registerSecret(auth.token);
  const workspace = await ports.fetchWorkspace({
    url: `${config.gitBaseUrl}/${request.owner}/${request.repo}.git`,
    headSha: pr.head.sha,
    mergeBaseSha: comparison.mergeBaseSha,
    baseSha: pr.base.sha,
    pullNumber: request.pullNumber,
    token: auth.token,
    signal,
  });
  job.workspace = workspace;
  // 4. The reply loop, given the thread and the anchored code as untrusted data.
  const result = await ports.runReplyLoop({
    view: workspace,
    signal,
    prompt: {
      repository: `${request.owner}/${request.repo}`,
      pullRequest: { number: request.pullNumber, url: pr.html_url, title: pr.title },
      mergeBaseSha: comparison.mergeBaseSha,
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
  job.result = result;
  if (result.termination_reason === "cancelled") return { kind: "cancelled" };
  const answer = result.answer;
  if (answer === null) {
    // 5a. No reply passed validation: the thread is told why, so the question is not left hanging.
    const detail = result.validation_failures?.[0] ?? null;
    const reason = result.termination_reason;
    await postReply(options, renderReplyFailure({ reason, detail, answering: request.replyCommentId }));
    return { kind: "failed", reason };
  }
  // 5b. The reply.
  await postReply(
    options,
    renderThreadReply({
      reply: answer.reply,
      status: answer.finding_status,
      spend: { rounds: result.rounds, toolCalls: result.tool_calls },
      answering: request.replyCommentId,
      repository: { ...repoRef, host: config.gitHost },
    }),
  );
  // 6. The thread resolved when the finding no longer stands, unless it is already, or a person
  // wrote after the reply Loupe answered (their comment is still waiting for an answer).
  const resolve = answer.finding_status !== "still_valid" && !thread.isResolved && !located.laterHumanReply;
  const resolved =
    resolve &&
    (await resolveReviewThread(octokit, thread.id).then(
      () => true,
      (error: unknown) => {
        options.log.warn({ error: errorDetail(error) }, "thread not resolved");
        return false;
      },
    ));
  return { kind: "answered", status: answer.finding_status, resolved };
}
