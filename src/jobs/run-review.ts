// One review job, in numbered steps. Every exit completes the check run (the finally block), and
// the workspace is always disposed: nothing is left in_progress, nothing is left on disk.

import type { CheckRuns, KnownRun, OpenCheckRun } from "../check-runs/check-runs.ts";
import { cancelledOutput, describeFailure, failureOutput, tooLargeDetail } from "../check-runs/texts.ts";
import { isPathIncluded } from "../config/repo-config.ts";
import { describeResolved, resolveFixedThreads } from "../conversation/resolve-step.ts";
import { describeScope } from "../conversation/review-scope.ts";
import { reviewedMarker } from "../conversation/review-state.ts";
import { scopeStep } from "../conversation/scope-step.ts";
import { listGitHubFile } from "../diff/listed-change.ts";
import { errorDetail } from "../error-detail.ts";
import { isLoupeError } from "../errors.ts";
import { renderCheckRunOutput } from "../github/check-run-output.ts";
import { comparePullRequest } from "../github/compare.ts";
import { githubGuidanceSource } from "../github/guidance-source.ts";
import { publishReview } from "../github/publish-review.ts";
import type { SecondaryRetryOptions } from "../github/retry-secondary.ts";
import { describeGuidance } from "../guidance/describe-guidance.ts";
import { loadGuidance } from "../guidance/load-guidance.ts";
import type { LoopResult } from "../llm/types.ts";
import type { ReviewEnding } from "../metrics/review-ended.ts";
import { registerSecret } from "../redact.ts";
import { reviewMarker } from "../review/render.ts";
import { emptySeverityCounts } from "../review/severity.ts";
import type { Workspace } from "../workspace/types.ts";
import { conclusionFor } from "./conclusion.ts";
import { type Ending, skippedEnding } from "./ending.ts";
import { filterInSlices } from "./filter-in-slices.ts";
import type { JobEnvironment } from "./job-environment.ts";
import { repoSettingsStep } from "./repo-settings-step.ts";
import { resolvePullRequest } from "./resolve-pull-request.ts";
import type { ReviewJob } from "./review-job.ts";
import type { PlannedReview } from "./review-ports.ts";
import type { JobSettlement } from "./review-queue.ts";
import { type CancelReason, isCancelReason, queueKey } from "./review-request.ts";

export interface RunReviewOptions extends JobEnvironment {
  readonly job: ReviewJob;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly now?: () => number;
  readonly checkRuns: CheckRuns;
  /** Told the check run as soon as it is open, so a later attempt of this job reuses it. */
  readonly onCheckRun?: (run: KnownRun) => Promise<void>;
  /** Told once, after the check run is completed: the metrics and the review's log line. */
  readonly onEnded?: (ending: ReviewEnding) => void;
}

export async function runReview(options: RunReviewOptions): Promise<JobSettlement> {
  const { job, signal, octokit, ports, config, log } = options;
  const { request } = job;
  const now = options.now ?? Date.now;
  const startedAt = now();
  let loopResult: LoopResult | null = null;
  const repoRef = { owner: request.owner, repo: request.repo };
  const key = queueKey(request);
  const retry: SecondaryRetryOptions = {
    sleep: options.sleep,
    now,
    deadline: now() + ports.reviewTimeoutMs + 60_000,
  };
  let run: OpenCheckRun | null = null;
  let headSha = request.headSha;
  let workspace: Workspace | null = null;
  let ending: Ending | null = null;
  let releaseToken = (): void => {};
  const aborted = (): Ending | null =>
    signal.aborted && isCancelReason(signal.reason)
      ? { conclusion: "cancelled", output: cancelledOutput(signal.reason), remember: false }
      : null;
  const end = (final: Ending): JobSettlement => {
    ending = final;
    return { remember: final.remember };
  };

  try {
    // 1. The pull request (pulls.get for re-runs), then the check run on its head SHA: the queued
    // one when this review waited for it on the same commit, else a new one.
    let earlier = job.checkRun;
    const openRun = async (sha: string) => {
      const opened = await options.checkRuns.open({
        octokit,
        target: { ...repoRef, pullNumber: request.pullNumber },
        headSha: sha,
        earlier,
        deadline: retry.deadline,
      });
      earlier = null; // the earlier run is used once
      await options.onCheckRun?.({ id: opened.id, headSha: opened.headSha });
      return opened;
    };
    const pr = await resolvePullRequest(octokit, request).catch(async (error: unknown) => {
      run = await openRun(request.headSha); // so the failure below is reported somewhere
      throw error;
    });
    headSha = pr.headSha;
    run = await openRun(pr.headSha);
    const checkRunId = run.id;
    if (!pr.open) return end(skippedEnding("closed", "The pull request is closed."));

    // 2. Repository configuration from the default branch, and the skips it decides.
    const settings = await repoSettingsStep(octokit, repoRef, ports, pr, request.rerun);
    if (!("kind" in settings)) return end(settings);
    const repoConfig = settings.config;

    // 3. GitHub's three-dot diff: merge-base, files and patches.
    const comparison = await comparePullRequest(octokit, {
      ...repoRef,
      pullNumber: request.pullNumber,
      baseSha: pr.baseSha,
      headSha,
    });
    if (comparison.headMovedTo !== null) {
      const reason: CancelReason = { kind: "superseded", headSha: comparison.headMovedTo };
      return end({ conclusion: "cancelled", output: cancelledOutput(reason), remember: false });
    }
    if (comparison.files.length > repoConfig.max_files || comparison.filesTruncated) {
      const count = comparison.filesTruncated ? `${comparison.files.length}+` : `${comparison.files.length}`;
      return end(
        skippedEnding(
          "too_many_files",
          `The pull request changes ${count} files; \`max_files\` is ${repoConfig.max_files}.`,
        ),
      );
    }
    const reviewable = await filterInSlices(
      comparison.files,
      (f) => f.status !== "removed" && isPathIncluded(repoConfig, f.filename),
    );
    const skippedFiles = comparison.files.length - reviewable.length;
    if (reviewable.length === 0) {
      return end(skippedEnding("no_files", "No reviewable files after the `paths` include/exclude rules."));
    }
    // 3b. The repository's guidance files, from the default branch like its configuration.
    const guidance = await loadGuidance({
      source: githubGuidanceSource(octokit, repoRef),
      config: repoConfig,
      changedFiles: reviewable.map((f) => f.filename),
    });
    const early = aborted();
    if (early) return end(early);

    // 4. Workspace (installation token as a header, only to the configured host).
    const auth = (await octokit.auth({ type: "installation" })) as { token: string };
    releaseToken = registerSecret(auth.token);
    try {
      workspace = await ports.fetchWorkspace({
        url: `${config.gitBaseUrl}/${request.owner}/${request.repo}.git`,
        headSha,
        mergeBaseSha: comparison.mergeBaseSha,
        baseSha: pr.baseSha,
        pullNumber: request.pullNumber,
        token: auth.token,
        signal,
      });
    } catch (error) {
      // A repository too big to fetch is a fact about it, like too many files: a skip, not a fault.
      if (!isLoupeError(error, "git_repository_too_large")) throw error;
      return end(skippedEnding("repository_too_large", tooLargeDetail(error.message)));
    }
    // 5. What Loupe said before on this PR, and the scope: the commits since its last review, or all.
    const botLogin = await options.botLogin();
    const { scope, history, newFiles, configDigest } = await scopeStep({
      octokit,
      repoRef,
      pullNumber: request.pullNumber,
      botLogin,
      askedFull: request.trigger === "command.full_review",
      config: repoConfig,
      headSha,
      mergeBaseSha: comparison.mergeBaseSha,
    });
    const scopeLine = describeScope(scope);

    // 6. The loop, told what this review covers.
    const result = await ports.runLoop({
      view: workspace,
      repository: `${request.owner}/${request.repo}`,
      pullRequest: {
        number: request.pullNumber,
        url: pr.url,
        title: pr.title,
        body: pr.body,
        baseSha: pr.baseSha,
        headSha,
      },
      changedFiles: reviewable.map(listGitHubFile),
      mergeBaseSha: comparison.mergeBaseSha,
      repositoryInstructions: repoConfig.instructions.trim() === "" ? null : repoConfig.instructions,
      guidance: guidance.files,
      signal,
      onRound: (p) => run?.progress(p),
      focus: {
        kind: scope.kind,
        description: scopeLine,
        files: (newFiles ?? []).map((f) => ({ path: f.filename, status: f.status, patch: f.patch ?? null })),
      },
    });
    loopResult = result;
    const cancel = result.termination_reason === "cancelled" ? aborted() : null;
    if (cancel) return end(cancel);

    let plan: PlannedReview | null = null;
    const notes: string[] = [scopeLine, describeGuidance(guidance, "the default branch")];
    const finalEnding = (conclusion: Ending["conclusion"], remember = true): Ending => ({
      conclusion,
      output: renderCheckRunOutput({
        result,
        conclusion,
        findingsBySeverity: plan?.findingsBySeverity ?? emptySeverityCounts(),
        filesReviewed: reviewable.length,
        filesSkipped: skippedFiles,
        headSha,
        extraNote: notes.join("\n\n"),
      }),
      remember,
    });

    // 7. Plan: anchor, filter, dedupe against what Loupe itself already posted on this PR.
    if (result.review !== null) {
      const posted = history.fingerprints;
      // The reviewed marker records head, merge-base and configuration for the next incremental
      // review; it is rendered with the body, so the body's length limit counts it.
      const reviewed = reviewedMarker({ headSha, mergeBaseSha: comparison.mergeBaseSha, configDigest });
      plan = await ports.planReview({
        view: workspace,
        result,
        files: comparison.files,
        config: repoConfig,
        postedFingerprints: posted,
        checkRunId,
        ...repoRef,
        headSha,
        reviewedMarker: reviewed,
      });
      notes.push(`Findings: ${plan.placement}`);
      // 8. One review, posted once (marker check, no blind retry, 422 → everything in the body).
      if (plan.postable) {
        try {
          const outcome = await publishReview(octokit, {
            ...repoRef,
            pullNumber: request.pullNumber,
            headSha,
            marker: reviewMarker(headSha, checkRunId),
            botLogin,
            body: plan.body,
            comments: plan.comments,
            allInBody: plan.allInBody,
            retry,
          });
          if (outcome.kind === "posted" && outcome.allInBody && plan.comments.length > 0) {
            notes.push("GitHub refused the inline comments, so every finding is in the review body.");
          }
          log.info({ key, review: outcome.kind }, "review published");
        } catch (error) {
          log.warn({ key, error: errorDetail(error) }, "review not posted");
          notes.push(`The review could not be posted: ${describeFailure(error)}`);
          return end(finalEnding("neutral", false));
        }
      }
      // 9. Resolve Loupe's own threads whose finding no longer applies; only after a complete review
      // (a budget-cut review may simply not have looked at a finding again).
      if (result.termination_reason === "final_review") {
        try {
          const resolved = await resolveFixedThreads({
            octokit,
            repoRef,
            pullNumber: request.pullNumber,
            botLogin,
            raised: plan.raised,
            newFiles,
            hasReviewComments: history.hasReviewComments,
          });
          const line = describeResolved(resolved);
          if (line !== null) notes.push(line);
        } catch (error) {
          log.warn({ key, error: errorDetail(error) }, "threads not checked for resolution");
          notes.push(
            `Loupe's earlier threads could not be checked for resolution: ${describeFailure(error)}`,
          );
        }
      }
    }
    // 10. Conclusion: success / failure (only the fail_on gate) / neutral (anything incomplete).
    const gate = plan?.gateFailed ?? false;
    if (gate && result.termination_reason === "final_review")
      notes.push("A finding reached this repository's `fail_on` severity.");
    return end(finalEnding(conclusionFor(result.termination_reason, gate)));
  } catch (error) {
    ending = aborted() ?? { conclusion: "neutral", output: failureOutput(error), remember: false };
    log.warn({ key, error: errorDetail(error) }, "review ended early");
    return { remember: false };
  } finally {
    // 11. Always: dispose the workspace, then complete the check run (after the last progress PATCH).
    if (workspace !== null)
      await workspace.dispose().catch(() => log.warn({ key }, "workspace dispose failed"));
    // Handed back to the shared queue: the run stays open for the replica that takes the job over
    // (the settlement is then `remember: false`, as for every aborted job).
    const handedBack = signal.aborted && isCancelReason(signal.reason) && signal.reason.kind === "handback";
    if (handedBack) log.info({ key }, "review handed back to the queue");
    else {
      if (run !== null) {
        const final: Ending = ending ?? {
          conclusion: "neutral",
          output: failureOutput(null),
          remember: false,
        };
        await (run as OpenCheckRun).complete(final).finally(releaseToken);
      }
      options.onEnded?.({
        repository: `${request.owner}/${request.repo}`,
        pullNumber: request.pullNumber,
        headSha,
        conclusion: (ending as Ending | null)?.conclusion ?? "neutral",
        result: loopResult,
        durationMs: now() - startedAt,
      });
    }
    releaseToken(); // after the last text that could have quoted it was published (idempotent)
  }
}
