// The verification pass, between the review's loop and its plan: each candidate finding of the
// final review is checked by its own bounded loop (the port), a few at a time, each with a share
// of the tokens and time the review has left. A refutation whose quote shows head code other than
// the claim holds a finding back, unless the finding is high or critical: then it is posted
// marked as disputed. Any other verdict keeps it. Findings that found no budget left, or whose
// check ended without a verdict, are kept unverified, each with which of the two it was (an
// operator must not raise budgets for a verifier that never answered in its schema); a cancelled
// review, or a stopped worker,
// ends it. The verifications' usage and spend are the review's: added to its result, and to the
// budget held for it, as each one ends.

import type { Finding } from "../domain/finding.ts";
import { isWorkerStopReason } from "../domain/outcome.ts";
import type { PullRequest } from "../domain/pull-request.ts";
import { addSpend } from "../domain/spend.ts";
import {
  DISPUTED_SEVERITIES,
  type NotVerified,
  type RefutedFinding,
  type UnverifiedFinding,
  type Verdict,
  type Verification,
} from "../domain/verification.ts";
import type { HostRepository } from "../host/pull-request-host.ts";
import { addUsage } from "../llm/envelope.ts";
import type { LoopResult } from "../llm/types.ts";
import type { JobLogger } from "../log/job-logger.ts";
import type { WorkspaceHandle } from "../workspace/types.ts";
import type { HeldBudget } from "./budget-step.ts";
import { equalShare, withinGrant } from "./pass-share.ts";
import type { ReviewPorts, VerifyResult } from "./review-ports.ts";
import { verifyLimits } from "./verify-limits.ts";

/** Verifications in flight at once: they mostly wait for the provider. */
export const VERIFY_CONCURRENCY = 4;

export interface VerifyStepInput<W extends WorkspaceHandle> {
  readonly view: W;
  readonly repository: HostRepository;
  readonly pullRequest: PullRequest;
  readonly mergeBaseSha: string;
  readonly signal: AbortSignal;
  readonly result: LoopResult;
  /** Caps the pass's tokens with the loop's, and is told the spend after each verification. */
  readonly budget: Pick<HeldBudget, "maxTokens" | "spent">;
  /** The review's clock (ReviewRun.now; tests control it). */
  readonly now: () => number;
}

type Checked =
  | {
      readonly kind: "kept";
      readonly finding: Finding;
      readonly verdict: Verdict;
      readonly unproven: boolean;
      readonly quoted: boolean;
    }
  | { readonly kind: "refuted"; readonly held: RefutedFinding; readonly quoted: boolean }
  | { readonly kind: "unverified"; readonly unverified: UnverifiedFinding };

export async function verifyStep<W extends WorkspaceHandle>(
  ports: Pick<ReviewPorts<W>, "reviewLimits" | "verifyFinding">,
  input: VerifyStepInput<W>,
): Promise<LoopResult> {
  const { result: looped, budget: held, view, signal } = input;
  const review = looped.review;
  if (!ports.reviewLimits.verify || review === null || review.findings.length === 0) return looped;
  const { now } = input;
  const started = now();
  const deadline = started + ports.reviewLimits.timeoutMs - looped.duration_ms;
  const tokens = withinGrant(ports.reviewLimits, held.maxTokens).maxTokens;
  const asked = {
    view,
    signal,
    clock: { now, deadline },
    repository: `${input.repository.owner}/${input.repository.repo}`,
    mergeBaseSha: input.mergeBaseSha,
    headSha: input.pullRequest.headSha,
  };
  let result = looped;
  let promised = 0;
  let inFlight = 0;
  let stopped: VerifyResult | null = null;
  // A check that ended without a verdict (the provider refused, time ran out): later ones would too.
  let exhausted: NotVerified | null = null;
  const checked: Checked[] = new Array(review.findings.length);

  const check = async (index: number): Promise<void> => {
    const finding = review.findings[index] as Finding;
    const unverified = (why: NotVerified) => {
      checked[index] = { kind: "unverified", unverified: { finding, why } };
    };
    if (stopped !== null) return unverified({ kind: "no_verdict", reason: stopped.termination_reason });
    if (signal.aborted) return unverified({ kind: "no_verdict", reason: "cancelled" });
    if (exhausted !== null) return unverified(exhausted);
    // What is left, less what checks in flight were promised, split over the lanes still free.
    const freeLanes = Math.min(VERIFY_CONCURRENCY - inFlight, review.findings.length - index);
    const left = tokens - result.usage.total_tokens - promised;
    const limits = verifyLimits(ports.reviewLimits, {
      tokens: equalShare(left, freeLanes),
      ms: deadline - now(),
    });
    if (limits === null) return unverified({ kind: "budget" });
    promised += limits.maxTokens;
    inFlight++;
    const ran = await ports.verifyFinding({ ...asked, finding, limits }).finally(() => {
      promised -= limits.maxTokens;
      inFlight--;
    });
    result = counted(result, ran);
    held.spent(result.spend);
    // Cancelled, or its worker stopped (the workspace went with it): the review ends so, as when
    // its own loop or its plan is stopped.
    const reason = ran.termination_reason;
    if (reason === "cancelled" || isWorkerStopReason(reason)) stopped ??= ran;
    if (ran.answer === null) exhausted ??= { kind: "no_verdict", reason };
    checked[index] = verdictOf(finding, ran);
  };
  await inBatches(review.findings.length, VERIFY_CONCURRENCY, check);
  // Verifications ran side by side: the review took the wall time, not the sum of their times.
  result = { ...result, duration_ms: looped.duration_ms + Math.max(0, now() - started) };
  if (signal.aborted) return { ...result, termination_reason: "cancelled", review: null, trace: null };
  const stop = stopped as VerifyResult | null;
  if (stop !== null)
    return { ...result, termination_reason: stop.termination_reason, review: null, trace: null };
  return { ...result, ...verified(review.findings.length, checked, result.review ?? review) };
}

/** One verification's verdict on its finding: only a proving quote makes a refutation. */
function verdictOf(finding: Finding, ran: VerifyResult): Checked {
  const answer = ran.answer;
  if (answer === null)
    return {
      kind: "unverified",
      unverified: { finding, why: { kind: "no_verdict", reason: ran.termination_reason } },
    };
  const quoted = ran.evidence_quoted;
  if (answer.verdict === "refuted" && ran.refutation_proven && answer.quote !== null) {
    return { kind: "refuted", held: { finding, reason: answer.reason, quote: answer.quote }, quoted };
  }
  return { kind: "kept", finding, verdict: answer.verdict, unproven: answer.verdict === "refuted", quoted };
}

/** The review's findings after the pass, in their order, and what the pass did. */
function verified(
  count: number,
  checked: readonly Checked[],
  review: NonNullable<LoopResult["review"]>,
): Pick<LoopResult, "review" | "verification"> {
  const findings: Finding[] = [];
  const verdicts: (Verdict | "disputed")[] = [];
  const unverified: UnverifiedFinding[] = [];
  const refuted: RefutedFinding[] = [];
  const disputed: RefutedFinding[] = [];
  let kept = 0;
  let unproven = 0;
  let unquoted = 0;
  for (let i = 0; i < count; i++) {
    const entry = checked[i] as Checked;
    if (entry.kind === "unverified") {
      unverified.push(entry.unverified);
      continue;
    }
    if (!entry.quoted) unquoted++;
    if (entry.kind === "kept") {
      kept++;
      if (entry.unproven) unproven++;
      findings.push(entry.finding);
      verdicts.push(entry.verdict);
    } else if (DISPUTED_SEVERITIES.has(entry.held.finding.severity)) {
      disputed.push(entry.held);
      const { reason, quote } = entry.held;
      findings.push({ ...entry.held.finding, disputed: { reason, quote } });
      verdicts.push("disputed");
    } else refuted.push(entry.held);
  }
  const verification: Verification = {
    kept,
    unproven,
    refuted,
    disputed,
    unverified,
    unquoted,
    verdicts,
  };
  return {
    review: { ...review, findings: [...findings, ...unverified.map((u) => u.finding)] },
    verification,
  };
}

/** Runs work(0..count-1) with at most `width` at once, each started in index order. */
async function inBatches(
  count: number,
  width: number,
  work: (index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, lane));
}

/** The review's figures with one verification's added: what budgets, cost and the check run count. */
function counted(result: LoopResult, ran: VerifyResult): LoopResult {
  return {
    ...result,
    usage: addUsage(result.usage, ran.usage),
    spend: addSpend(result.spend, ran.spend),
    rounds: result.rounds + ran.rounds,
    tool_calls: result.tool_calls + ran.tool_calls,
  };
}

/** One line when findings go unverified, by why: a budget that ran out is not a verifier that never answered. */
export function logNotVerified(result: LoopResult, log: Pick<JobLogger, "warn">): void {
  const unverified = result.verification?.unverified ?? [];
  if (unverified.length === 0) return;
  const budget = unverified.filter((u) => u.why.kind === "budget").length;
  const noVerdict: Record<string, number> = {};
  for (const { why } of unverified) {
    if (why.kind === "no_verdict") noVerdict[why.reason] = (noVerdict[why.reason] ?? 0) + 1;
  }
  log.warn({ budget_ran_out: budget, verifier_gave_no_verdict: noVerdict }, "findings not verified");
}
