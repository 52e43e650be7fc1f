// The only place that sequences a review, for every host: the pull request, the repository's
// settings, the change, guidance, the workspace, the scope, the tool loop, the plan, publishing.
// Each step is its own module and ends the review by returning an outcome; the workspace is
// disposed whatever happens. The App wraps this with its check run, the CLI with its output.
// Where the repository work runs (this thread, or a worker thread with limits) is the ports'
// business: W is what the pipeline holds of a workspace, and a port that was stopped says so.

import { reviewedMarker } from "../conversation/review-state.ts";
import type { PullRequestHost } from "../host/pull-request-host.ts";
import type { LoopClock } from "../llm/loop-limits.ts";
import type { WorkspaceHandle } from "../workspace/types.ts";
import { withSettings } from "./applied-settings.ts";
import { budgetStep, type HeldBudget } from "./budget-step.ts";
import { mentionOf } from "./command-text.ts";
import { describeGuidance } from "./describe-guidance.ts";
import { finderStep } from "./finder-step.ts";
import { scopeLine } from "./loop-step.ts";
import { prepareReview } from "./prepare-step.ts";
import { publishStep } from "./publish-step.ts";
import { startReviewDeadline, timedOutReading, timeLeftMs } from "./review-deadline.ts";
import { cancellation, type ReviewOutcome } from "./review-outcome.ts";
import type { ReviewPorts } from "./review-ports.ts";
import type { ReviewRun } from "./review-run.ts";
import { fullyCovered, type Prepared, reviewedFacts } from "./reviewed-facts.ts";
import { scopeStep } from "./scope-step.ts";
import { stoppedBeforeLoop, unlessStopped } from "./stopped-review.ts";
import { logNotVerified, verifyStep } from "./verify-step.ts";
import { disposable, openWorkspaceStep, repositoryEnding } from "./workspace-step.ts";

export type { ReviewRun };

export async function reviewPullRequest<W extends WorkspaceHandle>(
  host: PullRequestHost<W>,
  ports: ReviewPorts<W>,
  run: ReviewRun,
): Promise<ReviewOutcome> {
  const deadline =
    run.deadline ??
    startReviewDeadline({ timeoutMs: ports.reviewLimits.timeoutMs, now: run.now, signal: run.signal });
  const prepared = await prepareReview(host, ports, run).catch((error: unknown) => {
    // A host that reads the repository first (the CLI's) meets its size and the deadline here.
    if (deadline.passed() && !run.signal.aborted) throw timedOutReading(error);
    const ending = repositoryEnding(error, run.names);
    if (ending === null) throw error;
    return ending;
  });
  if (prepared.kind !== "prepared") return prepared;
  const held = await budgetStep(run.budget, { asked: run.asked, config: prepared.config, ...mentionOf(run) });
  if (held.kind !== "budget") return withSettings(held, prepared.settings);
  await using budget = held;
  const opened = await openWorkspaceStep(host, {
    pullRequest: prepared.pullRequest,
    mergeBaseSha: prepared.changes.mergeBaseSha,
    signal: run.signal,
    deadline,
    ...(run.names === undefined ? {} : { names: run.names }),
  });
  if (opened.kind === "stopped")
    return stoppedBeforeLoop(prepared, opened.reason, run.prices, guidanceNote(prepared, host));
  if (opened.kind !== "workspace") return opened;
  await using workspace = disposable(opened.workspace, run.log);
  // The loops get what is left of the review's time once its two commits are read.
  const leftMs = timeLeftMs(deadline, ports.reviewLimits.timeoutMs, run.now);
  if (leftMs === 0)
    return stoppedBeforeLoop(prepared, "review_timeout", run.prices, guidanceNote(prepared, host));
  const timed = { ...ports, reviewLimits: { ...ports.reviewLimits, timeoutMs: leftMs } };
  const clock = { now: run.now, deadline: deadline.at };
  return await reviewInWorkspace(host, timed, run, { ...prepared, view: workspace.value, budget, clock });
}

/** The scope, the loop, the plan and publishing, with the two commits at hand. */
async function reviewInWorkspace<W extends WorkspaceHandle>(
  host: PullRequestHost<W>,
  ports: ReviewPorts<W>,
  run: ReviewRun,
  prepared: Prepared & { readonly view: W; readonly budget: HeldBudget; readonly clock: LoopClock },
): Promise<ReviewOutcome> {
  const { pullRequest, config, view } = prepared;
  const mergeBaseSha = prepared.changes.mergeBaseSha;
  const scope = await scopeStep({
    history: host.history,
    threads: host.threads,
    people: host.people,
    askedFull: run.askedFull,
    config,
    headSha: pullRequest.headSha,
    mergeBaseSha,
  });
  const passed = await finderStep(ports, {
    ...prepared,
    repository: host.repository,
    changedFiles: prepared.changes.files,
    mergeBaseSha,
    scope,
    words: host.words,
    signal: run.signal,
    ...(run.onRound === undefined ? {} : { onRound: run.onRound }),
  });
  const { coverage } = passed;
  const result = await verifyStep(ports, {
    ...prepared,
    repository: host.repository,
    mergeBaseSha,
    signal: run.signal,
    result: passed.result,
    now: run.now,
  });
  logNotVerified(result, run.log);
  const aborted = result.termination_reason === "cancelled" ? cancellation(run.signal) : null;
  if (aborted !== null) return aborted;
  const line = scopeLine(scope, host.words);
  const notes = [...(line === null ? [] : [line]), guidanceNote(prepared, host)];
  const reviewed = reviewedFacts(prepared, result, run.prices, coverage);
  if (result.review === null) return { ...reviewed, plan: null, notes, publishFailed: false };
  const planned = await unlessStopped(() =>
    ports.planReview({
      view,
      result,
      files: prepared.changes.files,
      config,
      postedFingerprints: scope.history.fingerprints,
      ledger: scope.history.ledger,
      checkRunId: prepared.runId,
      repository: host.repository,
      words: host.words,
      headSha: pullRequest.headSha,
      // What a publishing host posts records head, merge-base and configuration for the next
      // incremental review; it is rendered with the body, so the body's length limit counts it.
      ...(host.publisher === undefined
        ? {}
        : {
            reviewedMarker: reviewedMarker({
              headSha: pullRequest.headSha,
              mergeBaseSha,
              configDigest: scope.configDigest,
            }),
          }),
    }),
  );
  if (planned.kind === "stopped") {
    const stopped = { ...result, termination_reason: planned.reason, review: null, trace: null };
    return {
      ...reviewedFacts(prepared, stopped, run.prices, coverage),
      plan: null,
      notes,
      publishFailed: false,
    };
  }
  const plan = planned.value;
  notes.push(`Findings: ${plan.placement}`);
  const published = await publishStep({
    host,
    plan,
    headSha: pullRequest.headSha,
    runId: prepared.runId,
    scope,
    // Threads on files no pass covered were not looked at again: they are not resolved either.
    complete: result.termination_reason === "final_review" && fullyCovered(coverage),
    log: run.log,
  });
  const { plan: counted, failed: publishFailed, findings: findingEvents } = published;
  return { ...reviewed, plan: counted, notes: [...notes, ...published.notes], publishFailed, findingEvents };
}

function guidanceNote(prepared: Prepared, host: PullRequestHost<WorkspaceHandle>): string {
  return describeGuidance(prepared.guidance, host.guidance.origin, host.words);
}
