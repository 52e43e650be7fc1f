// Finder passes (REVIEW_FINDER_PASSES): the change reviewed once from each angle
// (llm/finder-angles.ts), each finder under its share of the review's budget — what is left
// divided by the finders still to run, as file passes share it (pass-budget.ts) — and each
// reviewed in file passes when it is large (passes-step.ts). What the finders found is merged
// into one candidate list, the same defect kept once (merge-passes.ts), before verification.
// With one finder pass this is the plain review, with no angle.

import { STOPS_LATER_LOOPS } from "../domain/outcome.ts";
import { FINDER_ANGLES } from "../llm/finder-angles.ts";
import type { WorkspaceHandle } from "../workspace/types.ts";
import { mergePasses } from "./merge-passes.ts";
import { passShare, usedBy, withinGrant } from "./pass-budget.ts";
import { type PassesStep, type PassesStepInput, passesStep } from "./passes-step.ts";
import type { ReviewPorts } from "./review-ports.ts";

export async function finderStep<W extends WorkspaceHandle>(
  ports: Pick<ReviewPorts<W>, "runLoop" | "reviewLimits">,
  input: PassesStepInput<W>,
): Promise<PassesStep> {
  const finders = Math.min(ports.reviewLimits.finderPasses, FINDER_ANGLES.length);
  if (finders <= 1) return passesStep(ports, input);
  const total = withinGrant(ports.reviewLimits, input.budget.maxTokens);
  const started = input.now();
  const ran: { step: PassesStep; angle: string }[] = [];
  for (const angle of FINDER_ANGLES.slice(0, finders)) {
    const results = ran.map((r) => r.step.result);
    const share = passShare(total, usedBy(results, input.now() - started), finders - ran.length);
    if (share === null) break;
    const step = await passesStep(ports, { ...input, angle, share });
    ran.push({ step, angle });
    if (STOPS_LATER_LOOPS.has(step.result.termination_reason)) break;
  }
  const result = mergePasses(
    ran.map(({ step, angle }) => ({
      result: step.result,
      files: input.reviewable.length,
      label: `Finder pass from the angle of ${angle.split(" — ")[0]}`,
    })),
  );
  return { result, coverage: ran[0]?.step.coverage ?? null };
}
