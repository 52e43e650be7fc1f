// What the action reports when a review ends, as a value: the step summary (the check run's own
// texts, then the review exactly as it was or would have been posted), the step's outputs, and
// why the job fails, if it does. Only a complete review with a finding at the gate's severity,
// or a configuration the author must fix, fails the job: Loupe's own trouble never blocks a merge.

import { SEVERITIES, type Severity } from "../domain/finding.ts";
import { gateReached } from "../jobs/conclusion.ts";
import type { Ending } from "../jobs/ending.ts";
import type { ReviewOutcome } from "../pipeline/review-outcome.ts";

export interface ActionReport {
  readonly summary: string;
  readonly outputs: Readonly<Record<"termination-reason" | "findings" | "tokens" | "cost", string>>;
  /** Why the job fails; null when it succeeds. */
  readonly failure: string | null;
}

export interface ReportInput {
  readonly outcome: ReviewOutcome;
  readonly ending: Ending;
  readonly pullNumber: number;
  /** The token could not write the review (403): the summary is where it is (the ending says why). */
  readonly readOnly: boolean;
  /** The check run could not be created; why, in a sentence. */
  readonly noCheckRun: string | null;
  readonly failOn: Severity | null;
}

/**
 * What to change when GitHub refused the review for want of permission: the workflow's permissions,
 * or, for a fork's pull request (whose `pull_request` token is always read-only), the fork-safe
 * workflow. Said in the log, the check run and the step summary.
 */
export const READ_ONLY_NOTE =
  "GitHub refused to post the review (HTTP 403): this workflow's token may not write to the pull request, so the review is only in this job's summary. For inline comments, give the job `permissions: pull-requests: write` and `checks: write`. A fork's `pull_request` event always gets a read-only token: for pull requests from forks, run Loupe on `pull_request_target` as docs/github-action.md in Loupe's repository shows (it never checks out or runs the pull request's code).";

/**
 * A comment starts a review in the Action only where a workflow runs on the comment: the skip of
 * an author the policy holds back says which workflow that is.
 */
export const COMMENT_WORKFLOW_NOTE =
  'In GitHub Actions the comment starts a review only where a workflow runs on `issue_comment`: the comment-trigger workflow ("On demand, by comment") of docs/github-action.md in Loupe\'s repository.';

/** The ending of a skip, with what the Action needs for the command it names. */
export function withCommentWorkflowNote(ending: Ending, outcome: ReviewOutcome): Ending {
  if (outcome.kind !== "skipped" || outcome.code !== "author_not_allowed") return ending;
  return {
    ...ending,
    output: { ...ending.output, summary: `${ending.output.summary}\n\n${COMMENT_WORKFLOW_NOTE}` },
  };
}

/**
 * The ending of a review the client gave up on GitHub for: what could not be reached and what to
 * check leads the summary, so it is the sentence the job's last annotation shows.
 */
export function withUnreachableNote(ending: Ending, gaveUp: string | null): Ending {
  if (gaveUp === null) return ending;
  return { ...ending, output: { ...ending.output, summary: `${gaveUp}\n\n${ending.output.summary}` } };
}

/** The ending with what to change when the token could not post the review. */
export function withReadOnlyNote(ending: Ending): Ending {
  return {
    ...ending,
    output: { ...ending.output, summary: `${ending.output.summary}\n\n> ${READ_ONLY_NOTE}` },
  };
}

export function reportOutcome(input: ReportInput): ActionReport {
  const { outcome, ending } = input;
  const sections = [
    `## Loupe · pull request #${input.pullNumber}`,
    `**${ending.output.title}**`,
    ending.output.summary,
  ];
  if (input.noCheckRun !== null) sections.push(`> ${input.noCheckRun}`);
  const plan = outcome.kind === "reviewed" ? outcome.plan : null;
  if (plan?.postable) {
    const heading = input.readOnly ? "### The review (not posted)" : "### The review";
    sections.push(heading, summaryBody(plan.allInBody(), input.readOnly, plan.comments.length));
  }
  const reviewed = outcome.kind === "reviewed" ? outcome : null;
  const findings = plan === null ? 0 : SEVERITIES.reduce((sum, s) => sum + plan.findingsBySeverity[s], 0);
  return {
    summary: `${sections.join("\n\n")}\n`,
    outputs: {
      "termination-reason": reviewed?.result.termination_reason ?? "",
      findings: String(findings),
      tokens: String(reviewed?.result.usage.total_tokens ?? 0),
      // Dollars, when the provider reported them or the price inputs are set: empty, never a guess.
      cost: reviewed === null || reviewed.cost.kind === "unpriced" ? "" : reviewed.cost.dollars.toFixed(6),
    },
    failure: failureOf(input),
  };
}

// The review with every finding in its body is GitHub's 422 fallback, and says so in its first
// line; in the summary it is only the place where every finding is listed, so that line is
// replaced by what happened to the review.
const FALLBACK_LINE =
  /^GitHub did not accept the inline comments, so all (\d+ findings?) are listed here\.$/m;

function summaryBody(allInBody: string, readOnly: boolean, inline: number): string {
  return allInBody.replace(FALLBACK_LINE, (_line, findings: string) => {
    const listed = `${findings} ${findings.startsWith("1 ") ? "is" : "are"} listed here.`;
    return readOnly
      ? `Not posted: the ${listed}`
      : `Posted on the pull request (${inline} inline); the ${listed}`;
  });
}

/**
 * The App's texts point at its check run's "Re-run review" button, which an action's check run
 * does not have: in the action they say to re-run the job.
 */
export function forTheAction(ending: Ending): Ending {
  const rerun = (text: string) =>
    text
      .replace(/Press \*\*Re-run review\*\*/g, "Re-run this job")
      .replace(/press \*\*Re-run review\*\*/g, "re-run this job");
  const { output } = ending;
  return {
    ...ending,
    output: {
      ...output,
      title: output.title.replace(/press Re-run$/, "re-run this job"),
      summary: rerun(output.summary),
      ...(output.text === undefined ? {} : { text: rerun(output.text) }),
    },
  };
}

function failureOf(input: ReportInput): string | null {
  if (input.outcome.kind === "config_invalid") return "The repository's Loupe configuration is invalid.";
  if (!gateReached(input.outcome, input.failOn)) return null;
  return input.failOn === null
    ? "A finding reached this repository's `fail_on` severity."
    : `A finding reached the \`fail-on\` severity (${input.failOn}).`;
}
