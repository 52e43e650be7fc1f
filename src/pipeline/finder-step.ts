// Finder passes (REVIEW_FINDER_PASSES): the change reviewed once from each angle
// (llm/finder-angles.ts), each finder under its share of the review's budget — what is left
// divided by the finders still to run, by the runner file passes use (loop-sequence.ts) — and each
// reviewed in file passes when it is large (passes-step.ts). What the finders found is merged
// into one candidate list, the same defect kept once (merge-passes.ts), before verification.
// With one finder pass this is the plain review, with no angle.

import { FINDER_ANGLES } from "../llm/finder-angles.ts";
import type { WorkspaceHandle } from "../workspace/types.ts";
import { runLoopSequence } from "./loop-sequence.ts";
import { mergePasses } from "./merge-passes.ts";
import { withinGrant } from "./pass-share.ts";
import { type PassesStep, type PassesStepInput, passesStep } from "./passes-step.ts";
import type { ReviewPorts } from "./review-ports.ts";

export async function finderStep<W extends WorkspaceHandle>(
  ports: Pick<ReviewPorts<W>, "runLoop" | "reviewLimits">,
  input: PassesStepInput<W>,
): Promise<PassesStep> {
  const finders = Math.min(ports.reviewLimits.finderPasses, FINDER_ANGLES.length);
  if (finders <= 1) return passesStep(ports, input);
  const angles = FINDER_ANGLES.slice(0, finders);
  // Finders need no more than their equal share; the first that cannot be paid ends them.
  const { results } = await runLoopSequence({
    total: withinGrant(ports.reviewLimits, input.budget.maxTokens),
    count: angles.length,
    unpaid: "stop",
    now: input.clock.now,
    run: (i, share) => passesStep(ports, { ...input, angle: angles[i]!, share }),
    resultOf: (step) => step.result,
  });
  const ran = results.flatMap((step, i) => (step === undefined ? [] : [{ step, angle: angles[i]! }]));
  const result = mergePasses(
    ran.map(({ step, angle }) => ({
      result: step.result,
      files: input.reviewable.length,
      label: `Finder pass from the angle of ${angle.split(" — ")[0]}`,
    })),
  );
  return { result, coverage: ran[0]?.step.coverage ?? null };
}
