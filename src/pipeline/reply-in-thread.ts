// One reply in one of Loupe's review threads, over the same port as a review: the pull request at
// its current head (host.pullRequest), the thread (host.threads.list: Loupe's, still there, not
// answered yet), the workspace the host opens, the reply loop, the reply in the thread
// (host.threads.reply), and the thread resolved when the finding is fixed or withdrawn. A reply
// has no check run: what one would say goes in the thread, and an early end posts why. A host
// without threads has nothing to answer in: the reply is skipped before any other question.

import type { RepoConfigResult } from "../config/repo-config.ts";
import { locateReply, type ReplySkipReason } from "../conversation/locate-reply.ts";
import { isBotComment } from "../conversation/review-thread.ts";
import type { TerminationReason } from "../domain/outcome.ts";
import { hostedPage, type PullRequest } from "../domain/pull-request.ts";
import { redactSecrets } from "../domain/redact.ts";
import type { HostThreads, PullRequestHost } from "../host/pull-request-host.ts";
import type { FindingStatus, ThreadReply } from "../llm/reply-schema.ts";
import type { ToolLoopResult } from "../llm/types.ts";
import { errorDetail } from "../log/error-detail.ts";
import type { JobLogger } from "../log/job-logger.ts";
import { renderReplyFailure, renderReplyRefused, renderThreadReply } from "../review/render-reply.ts";
import type { WorkspaceHandle } from "../workspace/types.ts";
import { budgetStep, type HeldBudget, type ReviewBudget } from "./budget-step.ts";
import { describeFailure } from "./describe-failure.ts";
import type { ReviewPorts } from "./review-ports.ts";
import { workerStopOf } from "./stopped-review.ts";

export type ReplyOutcome =
  | { readonly kind: "answered"; readonly status: FindingStatus; readonly resolved: boolean }
  | { readonly kind: "failed"; readonly reason: TerminationReason | "error" }
  | { readonly kind: "skipped"; readonly reason: ReplySkipReason | "closed" | "no_threads" }
  /** The installation's or the repository's budget refused it: a one-line answer, no model request. */
  | { readonly kind: "refused"; readonly reason: "budget_reached" }
  | { readonly kind: "cancelled" };

export interface RepliedInThread {
  readonly outcome: ReplyOutcome;
  /** What the loop spent, for the log line and the metrics; null when it never ran. */
  readonly result: ToolLoopResult<ThreadReply> | null;
}

export interface ReplyRun {
  /** The thread's first comment (Loupe's finding), and the person's comment to answer. */
  readonly rootCommentId: number;
  readonly replyCommentId: number;
  readonly signal: AbortSignal;
  readonly log: JobLogger;
  /**
   * The installation's and the repository's budgets, which replies spend from as reviews do:
   * reserved before the model is asked, settled with the reply's spend. Absent: none counts.
   */
  readonly budget?: ReviewBudget;
}

type Ports<W extends WorkspaceHandle> = Pick<ReviewPorts<W>, "runReplyLoop" | "parseRepoConfig">;

/** Never throws: a failure outside the loop is told in the thread and returned as an outcome. */
export async function replyInThread<W extends WorkspaceHandle>(
  host: PullRequestHost<W>,
  ports: Ports<W>,
  run: ReplyRun,
): Promise<RepliedInThread> {
  const threads = host.threads;
  if (threads === undefined) return { outcome: { kind: "skipped", reason: "no_threads" }, result: null };
  const { forge } = host.words;
  return await answerThread(host, threads, ports, run).catch(async (error: unknown) => ({
    outcome: run.signal.aborted ? ({ kind: "cancelled" } as const) : await failed(threads, run, error, forge),
    result: null,
  }));
}

async function answerThread<W extends WorkspaceHandle>(
  host: PullRequestHost<W>,
  threads: HostThreads,
  ports: Ports<W>,
  run: ReplyRun,
): Promise<RepliedInThread> {
  const context = await threadContext(host, threads, run);
  if (context.kind === "skipped") return { outcome: context, result: null };
  const held = await replyBudget(host, ports, run);
  if (held.kind !== "budget") {
    await threads.reply({
      rootCommentId: run.rootCommentId,
      body: renderReplyRefused({ detail: held.detail, answering: run.replyCommentId }),
    });
    return { outcome: { kind: "refused", reason: "budget_reached" }, result: null };
  }
  await using budget = held;
  const { mergeBaseSha } = await host.changes(context.pullRequest);
  const workspace = await host.openWorkspace({
    pullRequest: context.pullRequest,
    mergeBaseSha,
    signal: run.signal,
  });
  await using _workspace = {
    [Symbol.asyncDispose]: () =>
      workspace.dispose().catch(() => run.log.warn({}, "workspace dispose failed")),
  };
  const result = await askModel(host, ports, run, {
    ...context,
    view: workspace,
    mergeBaseSha,
    maxTokens: budget.maxTokens,
  });
  budget.spent(result.spend);
  if (result.termination_reason === "cancelled") return { outcome: { kind: "cancelled" }, result };
  return { outcome: await publishReply(host, threads, run, context, result), result };
}

/**
 * 3. The reply's spend, reserved as a review's is. The repository's own caps are in its settings;
 * settings that do not parse leave the installation's caps alone in force (the review's check run
 * reports them).
 */
async function replyBudget<W extends WorkspaceHandle>(
  host: PullRequestHost<W>,
  ports: Ports<W>,
  run: ReplyRun,
): Promise<HeldBudget | { readonly kind: "refused"; readonly detail: string }> {
  const file = run.budget === undefined ? null : (await host.repoConfig()).file;
  return await heldOrRefused(run.budget, ports.parseRepoConfig(file?.kind === "found" ? file.text : null));
}

async function heldOrRefused(
  budget: ReviewBudget | undefined,
  parsed: RepoConfigResult,
): Promise<HeldBudget | { readonly kind: "refused"; readonly detail: string }> {
  const config = parsed.ok ? parsed.config : { budget: {} };
  const step = await budgetStep(budget, { asked: false, config });
  if (step.kind === "budget") return step;
  return { kind: "refused", detail: step.kind === "skipped" ? step.detail : "The budget refused the reply." };
}

/** Something failed outside the loop: the person is told, in the thread, and it is logged. */
async function failed(
  threads: HostThreads,
  run: ReplyRun,
  error: unknown,
  forge: string,
): Promise<ReplyOutcome> {
  // A worker stopped for memory or time has a reason of its own, whose sentence says it all.
  const stopped = workerStopOf(error);
  const reason = stopped ?? "error";
  const detail = stopped === null ? redactSecrets(describeFailure(error, forge)).replace(/`/g, "") : null;
  run.log.warn({ comment: run.replyCommentId, error: errorDetail(error) }, "reply ended early");
  const body = renderReplyFailure({ reason, detail, answering: run.replyCommentId, words: { forge } });
  await threads
    .reply({ rootCommentId: run.rootCommentId, body })
    .catch(() => run.log.warn({}, "the failure reply could not be posted"));
  return { kind: "failed", reason };
}

type Located = Extract<ReturnType<typeof locateReply>, { kind: "found" }>;
type ThreadContext =
  | { readonly kind: "skipped"; readonly reason: ReplySkipReason | "closed" | "no_threads" }
  | {
      readonly kind: "thread";
      readonly pullRequest: PullRequest;
      readonly page: NonNullable<ReturnType<typeof hostedPage>>;
      readonly self: string;
      readonly located: Located;
    };

/** 1–2. The pull request at its current head, and the thread: Loupe's, still there, not answered yet. */
async function threadContext(
  host: PullRequestHost<WorkspaceHandle>,
  threads: HostThreads,
  run: ReplyRun,
): Promise<ThreadContext> {
  const pullRequest = await host.pullRequest();
  const page = hostedPage(pullRequest);
  // A local change is no pull request on any host: it has no thread to answer in.
  if (page === null) return { kind: "skipped", reason: "no_threads" };
  if (!pullRequest.open) return { kind: "skipped", reason: "closed" };
  const list = await threads.list();
  const located = locateReply(list.threads, run, list.self);
  if (located.kind === "skip") return { kind: "skipped", reason: located.reason };
  return { kind: "thread", pullRequest, page, self: list.self, located };
}

/** 4. The reply loop, given the thread and the anchored code as untrusted data. */
function askModel<W extends WorkspaceHandle>(
  host: PullRequestHost<W>,
  ports: Ports<W>,
  run: ReplyRun,
  context: Extract<ThreadContext, { kind: "thread" }> & {
    readonly view: W;
    readonly mergeBaseSha: string;
    /** What the budgets granted, when less than the reply's own token budget may be. */
    readonly maxTokens: number | null;
  },
): Promise<ToolLoopResult<ThreadReply>> {
  const { pullRequest, page, located, self } = context;
  const { thread } = located;
  return ports.runReplyLoop({
    view: context.view,
    signal: run.signal,
    // A reply's run has no clock of its own: the machine's, and no deadline but the reply's limit.
    clock: { now: Date.now, deadline: Number.POSITIVE_INFINITY },
    ...(context.maxTokens === null ? {} : { maxTokens: context.maxTokens }),
    prompt: {
      repository: `${host.repository.owner}/${host.repository.repo}`,
      pullRequest: page,
      mergeBaseSha: context.mergeBaseSha,
      headSha: pullRequest.headSha,
      finding: {
        path: thread.path,
        line: thread.line,
        startLine: thread.startLine,
        body: located.finding.body,
      },
      replies: located.conversation.map((comment) => ({
        author: comment.author?.login ?? "ghost",
        fromLoupe: isBotComment(comment, self),
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
  host: PullRequestHost<WorkspaceHandle>,
  threads: HostThreads,
  run: ReplyRun,
  context: Extract<ThreadContext, { kind: "thread" }>,
  result: ToolLoopResult<ThreadReply>,
): Promise<ReplyOutcome> {
  const reply = (body: string) => threads.reply({ rootCommentId: run.rootCommentId, body });
  const answer = result.answer;
  if (answer === null) {
    const detail = result.validation_failures?.[0] ?? null;
    const reason = result.termination_reason;
    await reply(renderReplyFailure({ reason, detail, answering: run.replyCommentId, words: host.words }));
    return { kind: "failed", reason };
  }
  const { thread, laterHumanReply, conversation } = context.located;
  await reply(
    renderThreadReply({
      reply: answer.reply,
      status: answer.finding_status,
      spend: { rounds: result.rounds, toolCalls: result.tool_calls },
      answering: run.replyCommentId,
      repository: host.repository,
      replier: conversation.find((c) => c.databaseId === run.replyCommentId)?.author?.login ?? null,
    }),
  );
  const resolve = answer.finding_status !== "still_valid" && !thread.isResolved && !laterHumanReply;
  const resolved =
    resolve &&
    (await threads.resolve(thread.id).then(
      () => true,
      (error: unknown) => {
        run.log.warn({ error: errorDetail(error) }, "thread not resolved");
        return false;
      },
    ));
  return { kind: "answered", status: answer.finding_status, resolved };
}
