// The settings' layers carried on an outcome, so every report (the check run, GitLab's summary
// note, the Action's summary, the JSON for machines) can say which layers applied and what each
// set, and how many of the reviewed files each directory rule took.

import { countRuleFiles } from "../config/directory-rules.ts";
import type { AppliedSettings } from "../config/settings-layers.ts";
import type { ReviewOutcome } from "./review-outcome.ts";

/** The layers with each rule's count of the files it gives their rule. */
export function countedRules(applied: AppliedSettings, ruleOf: ReadonlyMap<string, number>): AppliedSettings {
  const counts = countRuleFiles(applied.rules.length, ruleOf);
  return { ...applied, rules: applied.rules.map((rule, i) => ({ ...rule, files: counts[i] ?? 0 })) };
}

/** A skip decided once the settings were read carries them; other outcomes are as they were. */
export function withSettings(outcome: ReviewOutcome, settings: AppliedSettings): ReviewOutcome {
  return outcome.kind === "skipped" ? { ...outcome, settings } : outcome;
}
