// One review job, in numbered steps. Every exit completes the check run (the finally block), and
// the workspace is always disposed: nothing is left in_progress, nothing is left on disk.

import {
  completeCheckRun,
  type CheckConclusion,
  type CheckRunOutput,
  createCheckRun,
} from "../github/check-run.ts";
import { updateCheckRunProgress } from "../github/check-run.ts";
import { comparePullRequest } from "../github/compare.ts";
import type { GitHubClient } from "../github/octokit.ts";
import { listPostedFingerprints } from "../github/posted-fingerprints.ts";
import { publishReview } from "../github/publish-review.ts";
import { readRepoConfigFile } from "../github/repo-config-file.ts";
import type { SecondaryRetryOptions } from "../github/retry-secondary.ts";
import { withSecondaryRetry } from "../github/retry-secondary.ts";
import type { AppConfig } from "../config/app-config.ts";
import { redactSecrets, registerSecret } from "../redact.ts";
import type { Workspace } from "../workspace/types.ts";
import { conclusionFor } from "./conclusion.ts";
import { cancelledOutput, configErrorOutput, describeFailure, failureOutput } from "./failure-text.ts";
import { createProgressReporter } from "./progress-reporter.ts";
import type { JobSettlement } from "./queue.ts";
import { resolvePullRequest } from "./resolve-pull-request.ts";
import type { PlannedReview, ReviewPorts } from "./review-ports.ts";
import { isCancelReason, queueKey, type ReviewRequest } from "./review-request.ts";

export interface JobLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface RunReviewOptions {
  readonly request: ReviewRequest;
  readonly signal: AbortSignal;
  readonly octokit: GitHubClient;
  readonly ports: ReviewPorts;
  readonly config: AppConfig;
  readonly log: JobLogger;
  /** `<slug>[bot]` when known: only its earlier comments count as already posted. */
  readonly botLogin: string | null;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly now?: () => number;
}

interface Ending {
  conclusion: CheckConclusion;
  output: CheckRunOutput;
  remember: boolean;
}

const skipped = (ports: ReviewPorts, reason: string, remember = true): Ending => ({
  conclusion: "skipped",
  output: ports.skipOutput(reason),
  remember,
});

export async function runReview(options: RunReviewOptions): Promise<JobSettlement> {
  const { request, signal, octokit, ports, config, log } = options;
  const now = options.now ?? Date.now;
  const repoRef = { owner: request.owner, repo: request.repo };
  const key = queueKey(request);
  const deadline = now() + ports.reviewTimeoutMs + 60_000;
  const retry: SecondaryRetryOptions = { sleep: options.sleep, now, deadline };
  let checkRunId: number | null = null;
  let workspace: Workspace | null = null;
  let ending: Ending | null = null;
  const progress = createProgressReporter({
    intervalMs: config.progressIntervalMs,
    now,
    send: (p) =>
      updateCheckRunProgress(octokit, { ...repoRef, checkRunId: checkRunId! }, ports.progressOutput(p)),
    onError: (error) => log.warn({ key, error: describeFailure(error) }, "progress update failed"),
  });
  const aborted = (): Ending | null =>
    signal.aborted && isCancelReason(signal.reason)
      ? { conclusion: "cancelled", output: cancelledOutput(signal.reason), remember: false }
      : null;

  try {
    // 1. The pull request (pulls.get for re-runs), then the check run on its head SHA.
    const startRun = (headSha: string) =>
      withSecondaryRetry(
        () =>
          createCheckRun(octokit, {
            ...repoRef,
            name: config.checkRunName,
            headSha,
            pullNumber: request.pullNumber,
            startedAt: new Date(now()),
            output: { title: "Review in progress", summary: "Loupe is reviewing this pull request." },
          }),
        retry,
      );
    const pr = await resolvePullRequest(octokit, request).catch(async (error: unknown) => {
      checkRunId = await startRun(request.headSha); // so the failure below is reported somewhere
      throw error;
    });
    checkRunId = await startRun(pr.headSha);
    if (!pr.open) return end(skipped(ports, "The pull request is closed."));

    // 2. Repository configuration from the default branch.
    const file = await readRepoConfigFile(octokit, repoRef);
    if (file.kind === "unreadable") {
      return end({
        conclusion: "action_required",
        output: configErrorOutput([{ path: "", message: file.message }]),
        remember: false,
      });
    }
    const parsed = ports.parseRepoConfig(file.kind === "found" ? file.text : null);
    if (!parsed.ok) {
      return end({
        conclusion: "action_required",
        output: configErrorOutput(parsed.errors),
        remember: false,
      });
    }
    const settings = parsed.settings;
    if (!settings.enabled) return end(skipped(ports, "Loupe is disabled in .github/loupe.yml."));
    if (!request.rerun && pr.draft && !settings.reviewDrafts) {
      return end(skipped(ports, "Draft pull request (review_drafts is off).", false));
    }
    if (!request.rerun && pr.authorIsBot && settings.ignoreBots) {
      return end(skipped(ports, "The pull request was opened by a bot (ignore_bots is on)."));
    }

    // 3. GitHub's three-dot diff: merge-base, files and patches.
    const comparison = await comparePullRequest(octokit, {
      ...repoRef,
      baseSha: pr.baseSha,
      headSha: pr.headSha,
    });
    if (comparison.files.length > settings.maxFiles || comparison.filesTruncated) {
      const count = comparison.filesTruncated ? `${comparison.files.length}+` : `${comparison.files.length}`;
      return end(
        skipped(ports, `The pull request changes ${count} files; max_files is ${settings.maxFiles}.`),
      );
    }
    const reviewable = comparison.files.filter(
      (f) => f.status !== "removed" && settings.includes(f.filename),
    );
    const skippedFiles = comparison.files.filter((f) => !reviewable.includes(f)).map((f) => f.filename);
    if (reviewable.length === 0) {
      return end(skipped(ports, "No reviewable files after the paths include/exclude rules."));
    }
    const early = aborted();
    if (early) return end(early);

    // 4. Workspace (installation token as a header, only to the configured host) and the loop.
    const auth = (await octokit.auth({ type: "installation" })) as { token: string };
    registerSecret(auth.token);
    workspace = await ports.fetchWorkspace({
      url: `${config.gitBaseUrl}/${request.owner}/${request.repo}.git`,
      headSha: pr.headSha,
      mergeBaseSha: comparison.mergeBaseSha,
      baseSha: pr.baseSha,
      pullNumber: request.pullNumber,
      token: auth.token,
      signal,
    });
    const result = await ports.runLoop({
      view: workspace,
      repository: `${request.owner}/${request.repo}`,
      pullRequest: {
        number: request.pullNumber,
        url: pr.url,
        title: pr.title,
        body: pr.body,
        baseSha: pr.baseSha,
        headSha: pr.headSha,
      },
      changedFiles: reviewable.map((f) => f.filename),
      mergeBaseSha: comparison.mergeBaseSha,
      repositoryInstructions: settings.instructions,
      signal,
      onRound: (p) => progress.report(p),
    });
    const cancel = result.termination_reason === "cancelled" ? aborted() : null;
    if (cancel) return end(cancel);

    // 5–6. Plan: anchor, filter, dedupe against what Loupe already posted on this PR.
    let plan: PlannedReview | null = null;
    let note: string | null = null;
    if (result.review !== null) {
      const posted = await listPostedFingerprints(octokit, {
        ...repoRef,
        pullNumber: request.pullNumber,
        botLogin: options.botLogin,
      });
      plan = await ports.planReview({
        view: workspace,
        result,
        files: comparison.files,
        settings: parsed,
        postedFingerprints: posted,
        marker: ports.reviewMarker(pr.headSha, checkRunId),
        repository: `${request.owner}/${request.repo}`,
        headSha: pr.headSha,
      });
      // 7. One review, posted once (marker check, no blind retry, 422 → everything in the body).
      if (plan.postable) {
        try {
          const outcome = await publishReview(octokit, {
            ...repoRef,
            pullNumber: request.pullNumber,
            headSha: pr.headSha,
            marker: ports.reviewMarker(pr.headSha, checkRunId),
            body: plan.body,
            comments: plan.comments,
            allInBody: plan.allInBody,
            retry,
          });
          log.info({ key, review: outcome.kind }, "review published");
        } catch (error) {
          note = `The review could not be posted: ${describeFailure(error)}`;
        }
      }
    }

    // 8. Conclusion: success / failure (only the fail_on gate) / neutral (anything incomplete).
    const conclusion =
      note === null ? conclusionFor(result.termination_reason, plan?.gateFailed ?? false) : "neutral";
    const output = ports.finalOutput({
      result,
      plan,
      filesReviewed: reviewable.map((f) => f.filename),
      filesSkipped: skippedFiles,
      conclusionNote: note,
    });
    return end({ conclusion, output, remember: note === null });
  } catch (error) {
    ending = aborted() ?? { conclusion: "neutral", output: failureOutput(error), remember: false };
    log.warn({ key, error: redactSecrets(describeFailure(error)) }, "review ended early");
    return { remember: false };
  } finally {
    // 9. Always: dispose the workspace, then complete the check run (after the last progress PATCH).
    if (workspace !== null)
      await workspace.dispose().catch(() => log.warn({ key }, "workspace dispose failed"));
    await progress.settle();
    if (checkRunId !== null) {
      const final = ending ?? {
        conclusion: "neutral" as const,
        output: failureOutput(null),
        remember: false,
      };
      await withSecondaryRetry(
        () =>
          completeCheckRun(octokit, {
            ...repoRef,
            checkRunId: checkRunId!,
            ...final,
            completedAt: new Date(now()),
          }),
        { ...retry, deadline: now() + 5 * 60_000 },
      ).catch((error) => log.warn({ key, error: describeFailure(error) }, "check run completion failed"));
      log.info({ key, conclusion: final.conclusion }, "check run completed");
    }
  }

  function end(final: Ending): JobSettlement {
    ending = final;
    return { remember: final.remember };
  }
}
