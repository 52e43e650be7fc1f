// The only place that sequences a review, for every host: the pull request, the repository's
// settings, the change, guidance, the workspace, the scope, the tool loop, the plan, publishing.
// Each step is its own module and ends the review by returning an outcome; the workspace is
// disposed whatever happens. The App wraps this with its check run, the CLI with its output.
// Where the repository work runs (this thread, or a worker thread with limits) is the ports'
// business: W is what the pipeline holds of a workspace, and a port that was stopped says so.

import {
  GIT_ATTRIBUTES_BYTES,
  type GitAttributes,
  gitAttributes,
  NO_ATTRIBUTES,
} from "../config/git-attributes.ts";
import { reviewedMarker } from "../conversation/review-state.ts";
import type { AuthorPolicy } from "../domain/author-policy.ts";
import type { PullRequest } from "../domain/pull-request.ts";
import type { SettingNames } from "../domain/setting-names.ts";
import type { Prices } from "../domain/spend.ts";
import { loadGuidance } from "../guidance/load-guidance.ts";
import type { PullRequestHost } from "../host/pull-request-host.ts";
import type { RoundProgress } from "../llm/types.ts";
import type { JobLogger } from "../log/job-logger.ts";
import type { WorkspaceHandle } from "../workspace/types.ts";
import { decideAuthor } from "./author-step.ts";
import { budgetStep, type HeldBudget, type ReviewBudget } from "./budget-step.ts";
import { selectChange } from "./change-step.ts";
import { mentionOf } from "./command-text.ts";
import { describeGuidance } from "./describe-guidance.ts";
import { finderStep } from "./finder-step.ts";
import { scopeLine } from "./loop-step.ts";
import { publishStep } from "./publish-step.ts";
import { cancellation, type ReviewOutcome, skipped } from "./review-outcome.ts";
import type { ReviewPorts } from "./review-ports.ts";
import { fullyCovered, type Prepared, reviewedFacts } from "./reviewed-facts.ts";
import { scopeStep } from "./scope-step.ts";
import { decideSettings } from "./settings-step.ts";
import { stoppedRecord, unlessStopped } from "./stopped-review.ts";
import { logNotVerified, verifyStep } from "./verify-step.ts";
import { disposable, openWorkspaceStep } from "./workspace-step.ts";

export interface ReviewRun {
  readonly signal: AbortSignal;
  /** A person asked for this review (re-run, command, the CLI): drafts, bots and pauses do not hold it. */
  readonly asked: boolean;
  /** A full review was asked for, even where an incremental one would do. */
  readonly askedFull: boolean;
  /** The operator's AUTO_REVIEW_AUTHORS: whose pull requests are reviewed without being asked. */
  readonly authorPolicy: AuthorPolicy;
  /** Called once the pull request is known; answers the id the review's markers carry (the check run). */
  readonly started: (pullRequest: PullRequest) => Promise<number>;
  readonly onRound?: (progress: RoundProgress) => void;
  readonly log: JobLogger;
  /** What the review may spend; absent, only its own budgets bound it (the CLI). */
  readonly budget?: ReviewBudget;
  /** The operator's prices (REVIEW_PRICE_*), or null: a cost is then the provider's figure or unknown. */
  readonly prices: Prices | null;
  /**
   * The handle a command mentions (`@<handle> review`): the App's slug, the Action's `mention`
   * input. Asked only for a text that tells someone what to type; absent: "mentioning Loupe".
   */
  readonly mention?: () => Promise<string>;
  /** How texts name settings where they are read (the Action: its inputs); absent: environment variables. */
  readonly names?: SettingNames;
  /** The review's one clock (epoch ms): its steps read time here, never the process's clock. */
  readonly now: () => number;
}

export async function reviewPullRequest<W extends WorkspaceHandle>(
  host: PullRequestHost<W>,
  ports: ReviewPorts<W>,
  run: ReviewRun,
): Promise<ReviewOutcome> {
  const prepared = await prepare(host, ports, run);
  if (prepared.kind !== "prepared") return prepared;
  const held = await budgetStep(run.budget, { asked: run.asked, config: prepared.config, ...mentionOf(run) });
  if (held.kind !== "budget") return held;
  await using budget = held;
  const opened = await openWorkspaceStep(host, {
    pullRequest: prepared.pullRequest,
    mergeBaseSha: prepared.changes.mergeBaseSha,
    signal: run.signal,
    ...(run.names === undefined ? {} : { names: run.names }),
  });
  if (opened.kind === "stopped") {
    const result = { ...stoppedRecord(opened.reason, null, 0), review: null };
    return {
      ...reviewedFacts(prepared, result, run.prices),
      plan: null,
      notes: [guidanceNote(prepared, host)],
      publishFailed: false,
    };
  }
  if (opened.kind !== "workspace") return opened;
  await using workspace = disposable(opened.workspace, run.log);
  return await reviewInWorkspace(host, ports, run, { ...prepared, view: workspace.value, budget });
}

/** Everything decided before any repository content is fetched: whether, and what, to review. */
async function prepare<W extends WorkspaceHandle>(
  host: PullRequestHost<W>,
  ports: ReviewPorts<W>,
  run: ReviewRun,
): Promise<Prepared | ReviewOutcome> {
  const pullRequest = await host.pullRequest();
  const runId = await run.started(pullRequest);
  if (!pullRequest.open) return skipped("closed", "The pull request is closed.");
  const settings = await decideSettings({
    configFile: await host.repoConfig(),
    parse: ports.parseRepoConfig,
    pullRequest,
    asked: run.asked,
    ...mentionOf(run),
  });
  if (settings.kind !== "settings") return settings;
  const { config } = settings;
  const author = await decideAuthor({
    operatorPolicy: run.authorPolicy,
    config,
    pullRequest,
    asked: run.asked,
    people: host.people,
    ...mentionOf(run),
  });
  if (author !== null) return author;
  const changes = await host.changes(pullRequest);
  const change = await selectChange(changes, config, await readGitAttributes(host));
  if (change.kind !== "change") return change;
  const guidance = await loadGuidance({
    source: host.guidance.source,
    config,
    changedFiles: change.reviewable.map((f) => f.filename),
  });
  return (
    cancellation(run.signal) ?? {
      kind: "prepared",
      pullRequest,
      runId,
      config,
      changes,
      reviewable: change.reviewable,
      skippedFiles: change.skippedFiles,
      leftOut: change.leftOut,
      guidance,
    }
  );
}

/** The scope, the loop, the plan and publishing, with the two commits at hand. */
async function reviewInWorkspace<W extends WorkspaceHandle>(
  host: PullRequestHost<W>,
  ports: ReviewPorts<W>,
  run: ReviewRun,
  prepared: Prepared & { readonly view: W; readonly budget: HeldBudget },
): Promise<ReviewOutcome> {
  const { pullRequest, config, view } = prepared;
  const mergeBaseSha = prepared.changes.mergeBaseSha;
  const scope = await scopeStep({
    history: host.history,
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
    signal: run.signal,
    now: run.now,
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
  const line = scopeLine(scope);
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

/**
 * The base's `.gitattributes`, read where guidance is (the default branch, never the head). Absent,
 * too large or unreadable, the review goes on without it: it only leaves files out.
 */
async function readGitAttributes(host: PullRequestHost<WorkspaceHandle>): Promise<GitAttributes> {
  try {
    const read = await host.guidance.source.read(".gitattributes", GIT_ATTRIBUTES_BYTES);
    return read.kind === "found" ? gitAttributes(new TextDecoder().decode(read.bytes)) : NO_ATTRIBUTES;
  } catch {
    return NO_ATTRIBUTES;
  }
}

function guidanceNote(prepared: Prepared, host: PullRequestHost<WorkspaceHandle>): string {
  return describeGuidance(prepared.guidance, host.guidance.origin);
}
