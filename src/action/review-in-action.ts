// One review in the action: the pipeline on the App's GitHub host with the action's token, inside
// the App's check run (or none, when the token may not make one), reported through the step's
// summary and outputs. A publish the token may not make (403) leaves the review in the summary.

import type { GitHubReview } from "../domain/review-request.ts";
import { type ReviewReporter, runReview } from "../forge/run-review.ts";
import { gitHubReview } from "../forges/github/github-review.ts";
import type { GitHubClient } from "../forges/github/octokit.ts";
import { httpStatus } from "../forges/github/octokit.ts";
import type { HostPublisher, PullRequestHost } from "../host/pull-request-host.ts";
import { createDefaultPorts } from "../jobs/default-ports.ts";
import type { Ending } from "../jobs/ending.ts";
import type { ReviewOutcome } from "../pipeline/review-outcome.ts";
import { actionCheckRun } from "./action-check-run.ts";
import { ACTION_SETTING_NAMES, type ActionSettings } from "./action-inputs.ts";
import { actionLogger, annotation, type Write } from "./action-log.ts";
import {
  forTheAction,
  READ_ONLY_NOTE,
  reportOutcome,
  withCommentWorkflowNote,
  withReadOnlyNote,
  withUnreachableNote,
} from "./action-report.ts";
import { writeMachineFiles } from "./machine-files.ts";
import type { RunnerContext } from "./runner-context.ts";
import { appendSummary, writeOutputs } from "./step-files.ts";
import type { UnreachableGitHub } from "./unreachable-github.ts";

export interface ReviewInActionInput {
  readonly context: RunnerContext;
  readonly settings: ActionSettings;
  readonly octokit: GitHubClient;
  /** Whether the client gave up on a GitHub it could not connect to, and what to tell the user then. */
  readonly unreachable: UnreachableGitHub;
  readonly request: GitHubReview;
  readonly io: { readonly stdout: Write; readonly signal: AbortSignal };
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export async function reviewInAction(input: ReviewInActionInput): Promise<number> {
  const { context, settings, octokit, request, io } = input;
  const log = actionLogger(io.stdout);
  const ports = createDefaultPorts({ provider: settings.provider, limits: settings.limits });
  let watched: ReturnType<typeof watchRefusal> | null = null;
  const target = { owner: request.owner, repo: request.repo, pullNumber: request.pullNumber };
  let exitCode = 1;
  // The check run, the step's summary and outputs: the action's report of the review.
  const reporter = (deadline: number): ReviewReporter => {
    const run = actionCheckRun({ octokit, target, deadline, log, sleep: input.sleep });
    return {
      open: (headSha) => run.open(headSha),
      progress: (progress) => run.current()?.progress(progress),
      complete: async (checkRunEnding, gated) => {
        const readOnly = watched?.refused() ?? false;
        const ended = withCommentWorkflowNote(forTheAction(checkRunEnding), gated);
        const reached = withUnreachableNote(ended, input.unreachable.gaveUp());
        const ending = readOnly ? withReadOnlyNote(reached) : reached;
        if (readOnly) io.stdout(annotation("warning", READ_ONLY_NOTE));
        await run.current()?.complete(ending);
        exitCode = report(gated, ending, { readOnly, noCheckRun: run.missing() });
        return { reported: run.current() !== null, headSha: run.current()?.headSha ?? request.headSha };
      },
    };
  };
  const report = (
    gated: ReviewOutcome,
    ending: Ending,
    check: { readonly readOnly: boolean; readonly noCheckRun: string | null },
  ): number => {
    const report = reportOutcome({
      outcome: gated,
      ending,
      pullNumber: request.pullNumber,
      ...check,
      failOn: settings.failOn,
    });
    appendSummary(context.summaryPath, report.summary);
    writeOutputs(context.outputPath, report.outputs);
    writeOutputs(context.outputPath, writeMachineFiles(settings.machineFiles, gated));
    if (report.failure !== null) io.stdout(annotation("error", report.failure));
    else if (ending.conclusion === "neutral") {
      // Visible on the run's page either way; a job that must not pass unreviewed fails on it.
      const said = `${ending.output.title}: ${ending.output.summary.split("\n")[0]}`;
      io.stdout(annotation(settings.failOnIncomplete ? "error" : "warning", said));
      if (settings.failOnIncomplete) return 1;
    }
    return report.failure === null ? 0 : 1;
  };
  await runReview(
    {
      request,
      signal: io.signal,
      ports,
      // pull_request_target runs for anyone's pull request, on the team's key: as in the App.
      authorPolicy: settings.authorPolicy,
      log,
      now: Date.now,
      prices: settings.prices,
      names: ACTION_SETTING_NAMES,
      failOn: settings.failOn,
      watch: (pipelineHost) => {
        watched = watchRefusal(pipelineHost);
        return watched.host;
      },
    },
    gitHubReview({
      request,
      octokit,
      host: {
        gitBaseUrl: context.serverUrl,
        gitHost: new URL(context.serverUrl).host,
        botLogin: async () => settings.botLogin,
        fetchWorkspace: ports.fetchWorkspace,
        ...(settings.configPath === null ? {} : { configPath: settings.configPath }),
      },
      reviewTimeoutMs: ports.reviewTimeoutMs,
      sleep: input.sleep,
      now: Date.now,
      reporter,
      mention: async () => settings.mention,
    }),
  );
  return exitCode;
}

/** The host as the pipeline sees it, noting when GitHub refused the review for want of permission. */
function watchRefusal(host: PullRequestHost): { readonly host: PullRequestHost; refused(): boolean } {
  let refused = false;
  const inner = host.publisher;
  const publisher: HostPublisher | undefined =
    inner === undefined
      ? undefined
      : {
          publish: (review) =>
            inner.publish(review).catch((error: unknown) => {
              if (httpStatus(error) === 403) refused = true;
              throw error;
            }),
        };
  return { host: { ...host, ...(publisher === undefined ? {} : { publisher }) }, refused: () => refused };
}
