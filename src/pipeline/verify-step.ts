// The verification pass, between the review's loop and its plan: each candidate finding of the
// final review is checked by its own bounded loop (the port), in order, with a slice of what the
// review has left. A refutation whose quote is in the head commit near the finding holds the
// finding back; any other verdict keeps it. What is left when the budget runs out (or a check
// ends without a verdict) is kept unverified; a cancelled review, or a stopped worker, ends it. The verifications' usage and spend are
// the review's: added to its result, and to the budget held for it, as each one ends.

import type { Finding } from "../domain/finding.ts";
import { isWorkerStopReason } from "../domain/outcome.ts";
import type { PullRequest } from "../domain/pull-request.ts";
import { addSpend } from "../domain/spend.ts";
import type { RefutedFinding, Verdict, Verification } from "../domain/verification.ts";
import type { HostRepository } from "../host/pull-request-host.ts";
import { addUsage } from "../llm/envelope.ts";
import type { LoopResult } from "../llm/types.ts";
import type { WorkspaceHandle } from "../workspace/types.ts";
import type { HeldBudget } from "./budget-step.ts";
import type { ReviewPorts, VerifyResult } from "./review-ports.ts";
import { verifyBudget } from "./verify-budget.ts";

export interface VerifyStepInput<W extends WorkspaceHandle> {
  readonly view: W;
  readonly repository: HostRepository;
  readonly pullRequest: PullRequest;
  readonly mergeBaseSha: string;
  readonly signal: AbortSignal;
  readonly result: LoopResult;
  /** Caps the pass's tokens with the loop's, and is told the spend after each verification. */
  readonly budget: Pick<HeldBudget, "maxTokens" | "spent">;
}

export async function verifyStep<W extends WorkspaceHandle>(
  ports: Pick<ReviewPorts<W>, "reviewLimits" | "verifyFinding">,
  input: VerifyStepInput<W>,
): Promise<LoopResult> {
  const { result: looped, budget: held, view, signal } = input;
  const asked = {
    view,
    signal,
    repository: `${input.repository.owner}/${input.repository.repo}`,
    mergeBaseSha: input.mergeBaseSha,
    headSha: input.pullRequest.headSha,
  };
  const review = looped.review;
  if (!ports.reviewLimits.verify || review === null || review.findings.length === 0) return looped;
  let result = looped;
  const posted: Finding[] = [];
  const verdicts: Verdict[] = [];
  const refuted: RefutedFinding[] = [];
  let unproven = 0;
  let next = 0;
  for (; next < review.findings.length; next++) {
    const finding = review.findings[next] as Finding;
    const budget = verifyBudget(ports.reviewLimits, held.maxTokens, result);
    if (asked.signal.aborted)
      return { ...result, termination_reason: "cancelled", review: null, trace: null };
    if (budget === null) break;
    const ran = await ports.verifyFinding({ ...asked, finding, budget });
    result = counted(result, ran);
    held.spent(result.spend);
    // Cancelled, or its worker stopped (the workspace went with it): the review ends so, as when
    // its own loop or its plan is stopped.
    const reason = ran.termination_reason;
    if (reason === "cancelled" || isWorkerStopReason(reason))
      return { ...result, termination_reason: reason, review: null, trace: null };
    if (ran.answer === null) break;
    if (ran.answer.verdict === "refuted" && ran.quote_found && ran.answer.quote !== null) {
      refuted.push({ finding, reason: ran.answer.reason, quote: ran.answer.quote });
      continue;
    }
    if (ran.answer.verdict === "refuted") unproven++;
    posted.push(finding);
    verdicts.push(ran.answer.verdict);
  }
  const unverified = review.findings.slice(next);
  const verification: Verification = { kept: posted.length, unproven, refuted, unverified, verdicts };
  return { ...result, review: { ...review, findings: [...posted, ...unverified] }, verification };
}

/** The review's figures with one verification's added: what budgets, cost and the check run count. */
function counted(result: LoopResult, ran: VerifyResult): LoopResult {
  return {
    ...result,
    usage: addUsage(result.usage, ran.usage),
    spend: addSpend(result.spend, ran.spend),
    rounds: result.rounds + ran.rounds,
    tool_calls: result.tool_calls + ran.tool_calls,
    duration_ms: result.duration_ms + ran.duration_ms,
  };
}
