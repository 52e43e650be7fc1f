// After the plan: one review posted once through the host (when it has a publisher and there is
// something new to say), then Loupe's own threads resolved when their finding no longer applies.
// A failure to post makes the review incomplete; a failure to resolve is only reported.

import type { PullRequestHost } from "../host/pull-request-host.ts";
import { errorDetail } from "../log/error-detail.ts";
import type { JobLogger } from "../log/job-logger.ts";
import { afterResolution, type LedgerEntry, summariseLedger } from "../review/ledger.ts";
import { reviewMarker } from "../review/review-marker.ts";
import { resolvedFindings } from "../review/reviewed-findings.ts";
import type { WorkspaceHandle } from "../workspace/types.ts";
import { describeFailure } from "./describe-failure.ts";
import { type Resolved, resolveFixed } from "./resolve-fixed.ts";
import type { FindingEvents } from "./review-outcome.ts";
import type { PlannedReview } from "./review-ports.ts";
import type { ScopeStep } from "./scope-step.ts";

export interface PublishStepInput {
  readonly host: PullRequestHost<WorkspaceHandle>;
  readonly plan: PlannedReview;
  readonly headSha: string;
  readonly runId: number;
  readonly scope: ScopeStep;
  /** Resolve threads only after a complete review: a budget-cut one may not have looked again. */
  readonly complete: boolean;
  readonly log: JobLogger;
}

export interface Published {
  /** Sentences for the check run. */
  readonly notes: string[];
  readonly failed: boolean;
  /** New findings this review posted, and Loupe's threads it resolved because their finding no longer applies. */
  readonly findings: FindingEvents;
  /** The plan, its ledger counting the findings whose threads this review resolved as fixed. */
  readonly plan: PlannedReview;
}

/** Posts the review, then resolves what no longer applies; what it did, in sentences and counts. */
export async function publishStep(input: PublishStepInput): Promise<Published> {
  const { host, plan, log } = input;
  const notes: string[] = [];
  let posted = 0;
  if (host.publisher !== undefined && plan.postable) {
    try {
      const outcome = await host.publisher.publish({
        headSha: input.headSha,
        marker: reviewMarker(input.headSha, input.runId),
        body: plan.body,
        comments: plan.comments,
        allInBody: plan.allInBody,
      });
      if (outcome.kind === "posted" && outcome.allInBody && plan.comments.length > 0) {
        notes.push(
          `${host.words.forge} refused the inline comments, so every finding is in the review body.`,
        );
      }
      const unplaced = outcome.kind === "posted" ? (outcome.unplaced ?? 0) : 0;
      if (unplaced > 0) {
        const of = `${unplaced} of ${plan.comments.length} inline comments`;
        notes.push(`${of} could not be placed on their lines, so they were posted together in one note.`);
      }
      log.info({ review: outcome.kind }, "review published");
      if (outcome.kind === "posted") posted = plan.ledger.fresh;
    } catch (error) {
      log.warn({ error: errorDetail(error) }, "review not posted");
      notes.push(`The review could not be posted: ${describeFailure(error, host.words.forge)}`);
      return { notes, failed: true, findings: { posted: 0, fixed: 0 }, plan };
    }
  }
  let fixed = 0;
  let counted = plan;
  if (host.threads !== undefined && input.complete) {
    try {
      const resolved = await resolveFixed(host.threads, {
        raised: plan.raised,
        newFiles: input.scope.newFiles,
        hasReviewComments: input.scope.history.hasReviewComments,
      });
      fixed = resolved.resolved;
      counted = countResolved(plan, input.scope.history.ledger, resolved.fingerprints);
      const line = describeResolved(resolved);
      if (line !== null) notes.push(line);
    } catch (error) {
      log.warn({ error: errorDetail(error) }, "threads not checked for resolution");
      notes.push(
        `Loupe's earlier threads could not be checked for resolution: ${describeFailure(error, host.words.forge)}`,
      );
    }
  }
  return { notes, failed: false, findings: { posted, fixed }, plan: counted };
}

/** The plan's ledger with the findings whose threads were just resolved counted fixed. */
function countResolved(
  plan: PlannedReview,
  ledger: readonly LedgerEntry[],
  fingerprints: readonly string[],
): PlannedReview {
  if (fingerprints.length === 0) return plan;
  const { fresh, dismissedRepeats } = plan.ledger;
  const after = afterResolution(ledger, new Set(fingerprints));
  return {
    ...plan,
    ledger: summariseLedger(after, fresh, dismissedRepeats),
    resolved: resolvedFindings(after, plan.findings),
  };
}

function describeResolved(outcome: Resolved): string | null {
  if (outcome.resolved === 0 && outcome.failed === 0) return null;
  const noun = outcome.resolved === 1 ? "thread" : "threads";
  const failed = outcome.failed > 0 ? ` (${outcome.failed} could not be resolved)` : "";
  return `Resolved ${outcome.resolved} of Loupe's earlier ${noun} whose finding no longer applies${failed}.`;
}
