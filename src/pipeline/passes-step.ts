// The tool loop over the change: one loop when the reviewable files fit one (never split), else
// one loop a pass (review-passes.ts), each a whole loop under the per-loop bounds with its share
// of the review's tokens and time (pass-share.ts, run by loop-sequence.ts), each listing only its
// files while the tools still see the whole workspace.
// The passes' results are merged into one (merge-passes.ts), planned and published once by the
// steps after this one. A pass that fails does not undo the others: the later passes still run
// unless the failure says they cannot succeed either, and the coverage says which files no
// finished pass covered, and why.

import type { AttributeReason } from "../config/git-attributes.ts";
import type { ChangedFile } from "../domain/changed-file.ts";
import type { ReviewCoverage } from "../domain/coverage.ts";
import { addSpend, NO_SPEND } from "../domain/spend.ts";
import { LISTED_CHANGES } from "../llm/prompt.ts";
import type { LoopResult, RoundProgress } from "../llm/types.ts";
import type { WorkspaceHandle } from "../workspace/types.ts";
import type { HeldBudget } from "./budget-step.ts";
import { coverageOf, worthShowing } from "./coverage.ts";
import { runLoopSequence, type SequenceOutcome } from "./loop-sequence.ts";
import { type LoopStepInput, loopInput } from "./loop-step.ts";
import { mergePasses } from "./merge-passes.ts";
import { type LoopLimits, passTokensNeeded, withinGrant } from "./pass-share.ts";
import { fileWeight, needsPasses, type PassCapacity, planPasses } from "./review-passes.ts";
import type { ReviewPorts } from "./review-ports.ts";

/**
 * One loop lists at most the files the prompt can, and is shown at most about 400 KB of diff — some
 * 100,000 tokens, what a loop reads within the default budget. A change within both is one loop.
 */
export const PASS_CAPACITY: PassCapacity = { files: LISTED_CHANGES.maxEntries, bytes: 400 * 1024 };

export interface PassesStepInput<W extends WorkspaceHandle>
  extends Omit<LoopStepInput<W>, "onRound" | "maxTokens"> {
  /** Every changed file the host listed (the reviewable ones and the rest). */
  readonly changedFiles: readonly ChangedFile[];
  /** Files the base's `.gitattributes` left out, and why. */
  readonly leftOut: ReadonlyMap<string, AttributeReason>;
  readonly budget: HeldBudget;
  readonly onRound?: (progress: RoundProgress) => void;
  /** A finder pass's share of the review's budget (finder-step.ts); absent: the whole of it. */
  readonly share?: LoopLimits;
}

export interface PassesStep {
  readonly result: LoopResult;
  /** null for a review in one loop that left nothing out by design and saw every file's lines. */
  readonly coverage: ReviewCoverage | null;
}

export async function passesStep<W extends WorkspaceHandle>(
  ports: Pick<ReviewPorts<W>, "runLoop" | "reviewLimits">,
  input: PassesStepInput<W>,
): Promise<PassesStep> {
  const { reviewable, budget } = input;
  const covered = (
    plan: readonly (readonly ChangedFile[])[],
    ran: readonly (LoopResult | undefined)[],
    stopped: boolean,
  ) =>
    coverageOf({
      changedFiles: input.changedFiles,
      reviewable,
      leftOut: input.leftOut,
      plan,
      ran,
      notRun: stopped ? "pass_failed" : "budget",
    });
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
      ...(input.share === undefined ? {} : { share: input.share }),
    });
    budget.spent(result.spend);
    const coverage = covered([reviewable], [result], false);
    return { result, coverage: worthShowing(coverage) ? coverage : null };
  }
  const plan = planPasses(reviewable, PASS_CAPACITY);
  const { results, stopped } = await runPasses(ports, input, plan);
  return {
    result: mergePasses(
      results.flatMap((result, i) => (result === undefined ? [] : [{ result, files: plan[i]!.length }])),
    ),
    coverage: covered(plan, results, stopped),
  };
}

/**
 * The passes in order, each a whole loop with its share of the review's tokens and time
 * (loop-sequence.ts). A pass may take more than its equal share to read its diff and answer; one
 * whose share cannot pay for that is not started (its files are listed as budget), and a later,
 * lighter pass may still run.
 */
async function runPasses<W extends WorkspaceHandle>(
  ports: Pick<ReviewPorts<W>, "runLoop" | "reviewLimits">,
  input: PassesStepInput<W>,
  plan: readonly (readonly ChangedFile[])[],
): Promise<SequenceOutcome<LoopResult>> {
  const changedFiles = plan.reduce((sum, pass) => sum + pass.length, 0);
  let spend = NO_SPEND;
  const run = async (i: number, share: LoopLimits): Promise<LoopResult> => {
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
      share,
      pass,
    });
    spend = addSpend(spend, result.spend);
    input.budget.spent(spend);
    return result;
  };
  return runLoopSequence({
    total: input.share ?? withinGrant(ports.reviewLimits, input.budget.maxTokens),
    count: plan.length,
    needs: (i) => passTokensNeeded(plan[i]!.reduce((sum, f) => sum + fileWeight(f), 0)),
    unpaid: "skip",
    now: input.clock.now,
    run,
    resultOf: (result) => result,
  });
}
