// Loupe's check run: created on the head SHA (queued while the review waits its turn, else
// in_progress), updated with progress, and always completed. Every text is clamped to GitHub's
// limits here, the one place that talks to the Checks API, so no caller can produce a request
// GitHub would reject for its size.

import { cutCodePoints } from "../../domain/text.ts";
import { REPORT_TEXT_LIMIT } from "../../jobs/ending-texts.ts";
import type { CheckConclusion, CheckRunOutput } from "../../report/review-report.ts";
import { cutAtBlockBoundary } from "../../review/markdown-cut.ts";
import { stripInvisible } from "../../review/markdown-text.ts";
import { formatExternalId } from "./external-id.ts";
import type { GitHubClient, RepoRef } from "./octokit.ts";

/** The "Re-run review" button (label ≤ 20, description ≤ 40, identifier ≤ 20 characters). */
export const RERUN_ACTION = {
  label: "Re-run review",
  description: "Review this pull request again",
  identifier: "rerun",
} as const;

/** GitHub's limit on a check run's summary and text. */
export const CHECK_RUN_TEXT_LIMIT = REPORT_TEXT_LIMIT;
const TITLE_LIMIT = 255;
const TRUNCATED = "\n\n… (truncated to fit GitHub's limit)";

/**
 * Text within `limit`, cut only where a block ends (markdown-cut.ts): a cut inside a code span or
 * a fence would publish the rest of it as live Markdown. Loupe's renderers fit their own limits
 * on the Markdown tree; this is the net for any text that did not.
 */
export function clampText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const kept = cutAtBlockBoundary(text, limit - TRUNCATED.length);
  return kept === "" ? TRUNCATED.trimStart() : kept + TRUNCATED;
}

export function clampOutput(output: CheckRunOutput): CheckRunOutput {
  const title = stripInvisible(output.title).replace(/\s+/g, " ").trim() || "Loupe";
  return {
    title: title.length <= TITLE_LIMIT ? title : `${cutCodePoints(title, TITLE_LIMIT - 1)}…`,
    summary: clampText(output.summary, CHECK_RUN_TEXT_LIMIT),
    ...(output.text === undefined ? {} : { text: clampText(output.text, CHECK_RUN_TEXT_LIMIT) }),
  };
}

export interface CreateCheckRunInput extends RepoRef {
  readonly name: string;
  readonly headSha: string;
  readonly pullNumber: number;
  readonly output: CheckRunOutput;
  /** When the review started; without it the run is created `queued`. */
  readonly startedAt: Date | null;
}

export async function createCheckRun(octokit: GitHubClient, input: CreateCheckRunInput): Promise<number> {
  const response = await octokit.rest.checks.create({
    owner: input.owner,
    repo: input.repo,
    name: input.name,
    head_sha: input.headSha,
    external_id: formatExternalId(input.pullNumber),
    ...(input.startedAt === null
      ? { status: "queued" as const }
      : { status: "in_progress" as const, started_at: input.startedAt.toISOString() }),
    output: clampOutput(input.output),
  });
  return response.data.id;
}

/** A queued run's review starts: in_progress from now on. */
export async function startQueuedCheckRun(
  octokit: GitHubClient,
  ref: RepoRef & { readonly checkRunId: number; readonly startedAt: Date; readonly output: CheckRunOutput },
): Promise<void> {
  await octokit.rest.checks.update({
    owner: ref.owner,
    repo: ref.repo,
    check_run_id: ref.checkRunId,
    status: "in_progress",
    started_at: ref.startedAt.toISOString(),
    output: clampOutput(ref.output),
  });
}

export async function updateCheckRunProgress(
  octokit: GitHubClient,
  ref: RepoRef & { readonly checkRunId: number },
  output: CheckRunOutput,
): Promise<void> {
  await octokit.rest.checks.update({
    owner: ref.owner,
    repo: ref.repo,
    check_run_id: ref.checkRunId,
    output: clampOutput(output),
  });
}

/** How a check run ends: its conclusion and output (a job's ending, jobs/ending.ts, carries them). */
export interface CompleteCheckRunInput extends RepoRef {
  readonly conclusion: CheckConclusion;
  readonly output: CheckRunOutput;
  readonly checkRunId: number;
  readonly completedAt: Date;
}

export async function completeCheckRun(octokit: GitHubClient, input: CompleteCheckRunInput): Promise<void> {
  await octokit.rest.checks.update({
    owner: input.owner,
    repo: input.repo,
    check_run_id: input.checkRunId,
    status: "completed",
    conclusion: input.conclusion,
    completed_at: input.completedAt.toISOString(),
    output: clampOutput(input.output),
    actions: [{ ...RERUN_ACTION }],
  });
}

/**
 * A Loupe run on this commit for this pull request that is not completed (queued, or in progress
 * by an attempt that died before recording it): a read, which GitHub does not pace.
 */
export async function findOpenCheckRun(
  octokit: GitHubClient,
  where: RepoRef & { readonly headSha: string; readonly name: string; readonly pullNumber: number },
): Promise<number | null> {
  const response = await octokit.rest.checks.listForRef({
    owner: where.owner,
    repo: where.repo,
    ref: where.headSha,
    check_name: where.name,
    filter: "all",
    per_page: 100,
  });
  const externalId = formatExternalId(where.pullNumber);
  const open = response.data.check_runs.find(
    (run) => run.status !== "completed" && run.external_id === externalId && run.head_sha === where.headSha,
  );
  return open?.id ?? null;
}
