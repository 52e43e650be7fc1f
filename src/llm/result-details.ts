// The explanations a finished loop carries beyond its termination reason, as plain sentences for
// both the check run and `loupe review`: what to check after a provider failure, whether a repair
// round happened and why, and the checks the last final review failed. Each renderer formats
// them (the failed checks quote model-chosen keys and paths, so they are always shown as code).

import { ENVIRONMENT_NAMES, type SettingNames } from "../domain/setting-names.ts";
import { providerFailureHint } from "./provider-hint.ts";
import type { LoopResult, RepairRound } from "./types.ts";

export interface ResultDetails {
  readonly providerHint: string | null;
  /** One sentence about the repair round; the checks it was asked for are `repairFailures`. */
  readonly repair: string | null;
  readonly repairFailures: readonly string[];
  /** The checks the last final review failed, when none passed; nothing of it was published. */
  readonly failures: readonly string[];
}

const OUTCOME: Record<RepairRound["outcome"], (round: RepairRound) => string> = {
  repaired: (r) =>
    `The final review of round ${r.failed_round} failed Loupe's checks below, so Loupe sent one repair request; the corrected review passed.`,
  failed: (r) =>
    `The final review of round ${r.failed_round} failed Loupe's checks below; Loupe sent one repair request, and the corrected review failed again.`,
  not_a_review: (r) =>
    `The final review of round ${r.failed_round} failed Loupe's checks below; Loupe sent one repair request, and the answer was not a final review.`,
  interrupted: (r) =>
    `The final review of round ${r.failed_round} failed Loupe's checks below; Loupe sent one repair request, and the review stopped before it was answered.`,
  not_sent: (r) =>
    `The final review of round ${r.failed_round} failed Loupe's checks below; no repair request was sent because the ${r.budget ?? "review"} budget had no room left.`,
};

export function resultDetails(result: LoopResult, names: SettingNames = ENVIRONMENT_NAMES): ResultDetails {
  const repair = result.repair;
  return {
    providerHint:
      result.provider_failure === undefined
        ? null
        : providerFailureHint(result.termination_reason, result.provider_failure, names),
    repair: repair === undefined ? null : OUTCOME[repair.outcome](repair),
    repairFailures: repair?.failures ?? [],
    failures:
      result.termination_reason === "final_review" || result.validation_failures === undefined
        ? []
        : result.validation_failures,
  };
}

export function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}
