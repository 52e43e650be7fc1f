// The tool loop over the change: one loop when the reviewable files fit one (as always), else
// one loop a pass (review-passes.ts), each under its share of the review's budget
// (pass-budget.ts), each listing only its files while the tools still see the whole workspace.
// The passes' results are merged into one (merge-passes.ts), planned and published once by the
// steps after this one. A pass that fails does not undo the others: the later passes still run
// unless the failure says they cannot succeed either, and the coverage says which files no
// finished pass covered, and why.

import type { ChangedFile } from "../domain/changed-file.ts";
import type { ReviewCoverage } from "../domain/coverage.ts";
import type { TerminationReason } from "../domain/outcome.ts";
import { addSpend, NO_SPEND } from "../domain/spend.ts";
import { LISTED_CHANGES } from "../llm/prompt.ts";
import type { LoopResult, RoundProgress } from "../llm/types.ts";
import type { WorkspaceHandle } from "../workspace/types.ts";
import type { HeldBudget } from "./budget-step.ts";
import { coverageOf, setAside } from "./coverage.ts";
import { type LoopStepInput, loopInput } from "./loop-step.ts";
import { mergePasses } from "./merge-passes.ts";
import { type LoopBudget, passesAffordable, passShare, usedBy, withinGrant } from "./pass-budget.ts";
import { needsPasses, type PassCapacity, planPasses } from "./review-passes.ts";
import type { ReviewPorts } from "./review-ports.ts";

/**
 * One pass: at most the files the prompt lists, and at most so many changed lines — about 400 KB
 * of patch, some 100,000 tokens, which a loop reads within the default budget's share.
 */
export const PASS_CAPACITY: PassCapacity = { files: LISTED_CHANGES.maxEntries, lines: 10_000 };

/** Failures a later pass would meet too: the review stops there. */
const STOPS_REVIEW: ReadonlySet<TerminationReason> = new Set<TerminationReason>([
  "cancelled",
  "worker_out_of_memory",
  "worker_timeout",
  "provider_authentication_failed",
  "provider_request_rejected",
  "provider_rate_limited",
]);

export interface PassesStepInput<W extends WorkspaceHandle>
  extends Omit<LoopStepInput<W>, "onRound" | "maxTokens"> {
  /** Every changed file the host listed (the reviewable ones and the rest). */
  readonly changedFiles: readonly ChangedFile[];
  readonly budget: HeldBudget;
  readonly onRound?: (progress: RoundProgress) => void;
  /** A finder pass's share of the review's budget (finder-step.ts); absent: the whole of it. */
  readonly share?: LoopBudget;
}

export interface PassesStep {
  readonly result: LoopResult;
  /** null for a review in one loop. */
  readonly coverage: ReviewCoverage | null;
}

export async function passesStep<W extends WorkspaceHandle>(
  ports: Pick<ReviewPorts<W>, "runLoop" | "reviewLimits">,
  input: PassesStepInput<W>,
): Promise<PassesStep> {
  const { reviewable, budget } = input;
  if (!needsPasses(reviewable, PASS_CAPACITY)) {
    const result = await ports.runLoop({
      ...loopInput({
        ...input,
        maxTokens: budget.maxTokens,
        onRound: (progress) => {
          budget.spent(progress.spend);
          input.onRound?.(progress);
        },
      }),
      ...(input.share === undefined ? {} : { budget: input.share }),
    });
    budget.spent(result.spend);
    return { result, coverage: null };
  }
  const { withDiff, aside } = setAside(reviewable);
  const plan = planPasses(withDiff, PASS_CAPACITY);
  const ran = await runPasses(ports, input, plan);
  return {
    result: mergePasses(ran.map((result, i) => ({ result, files: plan[i]!.length }))),
    coverage: coverageOf({
      changedFiles: input.changedFiles,
      reviewable,
      aside,
      plan,
      ran,
      notRun: ran.some((r) => STOPS_REVIEW.has(r.termination_reason)) ? "pass_failed" : "budget",
    }),
  };
}

/** The passes in order, each with its share; the results of those that ran. */
async function runPasses<W extends WorkspaceHandle>(
  ports: Pick<ReviewPorts<W>, "runLoop" | "reviewLimits">,
  input: PassesStepInput<W>,
  plan: readonly (readonly ChangedFile[])[],
): Promise<LoopResult[]> {
  const total = input.share ?? withinGrant(ports.reviewLimits, input.budget.maxTokens);
  const count = Math.min(plan.length, passesAffordable(total));
  const changedFiles = plan.reduce((sum, pass) => sum + pass.length, 0);
  const started = Date.now();
  const ran: LoopResult[] = [];
  let spend = NO_SPEND;
  for (let i = 0; i < count; i++) {
    const share = passShare(total, usedBy(ran, Date.now() - started), count - i);
    if (share === null) break;
    const pass = { index: i + 1, count: plan.length, changedFiles };
    const before = spend;
    const result = await ports.runLoop({
      ...loopInput({
        ...input,
        reviewable: plan[i]!,
        maxTokens: null,
        onRound: (progress) => {
          input.budget.spent(addSpend(before, progress.spend));
          input.onRound?.({ ...progress, pass: { index: pass.index, count: pass.count } });
        },
      }),
      budget: share,
      pass,
    });
    spend = addSpend(spend, result.spend);
    input.budget.spent(spend);
    ran.push(result);
    if (STOPS_REVIEW.has(result.termination_reason)) break;
  }
  return ran;
}
