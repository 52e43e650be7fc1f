// Which directory rule a file takes, and so its min_severity and fail_on: the first rule, in the
// merged order (the repository's rules, then the organisation's), one of whose patterns matches
// the path. First match, not "most specific": two patterns like `payments/**` and `**/*.sql` have
// no order of specificity, so a reader could not tell which wins without computing it; a list read
// top to bottom can. A rule that does not set a key leaves the file the top-level value. Each
// rule's patterns are one automaton of the bounded matcher (glob.ts), compiled once per settings.

import type { Severity } from "../domain/finding.ts";
import type { DirectoryRule, RepoConfig } from "./repo-config-schema.ts";
import { globMatcher } from "./repo-paths.ts";

export type FailOn = RepoConfig["fail_on"];

/** What applies to one file: its rule (its index in the merged rules), or none. */
export interface FileRule {
  readonly rule: number | null;
  readonly min_severity: Severity;
  readonly fail_on: FailOn;
  readonly instructions: string | null;
}

type RuleSettings = Pick<RepoConfig, "rules" | "min_severity" | "fail_on">;

const compiled = new WeakMap<readonly DirectoryRule[], ((path: string) => boolean)[]>();

function matchersOf(rules: readonly DirectoryRule[]): ((path: string) => boolean)[] {
  let matchers = compiled.get(rules);
  if (matchers === undefined) {
    matchers = rules.map((rule) => globMatcher(rule.paths));
    compiled.set(rules, matchers);
  }
  return matchers;
}

/** The rule a path takes, or the top-level settings when no rule matches it. */
export function fileRule(config: RuleSettings, path: string): FileRule {
  const matchers = matchersOf(config.rules);
  const index = matchers.findIndex((matches) => matches(path));
  const rule = index < 0 ? undefined : config.rules[index];
  return {
    rule: index < 0 ? null : index,
    min_severity: rule?.min_severity ?? config.min_severity,
    fail_on: rule?.fail_on ?? config.fail_on,
    instructions: rule?.instructions ?? null,
  };
}

/** How many of these paths each rule gives their rule (a path counts for its first match only). */
export function countRuleFiles(config: RuleSettings, paths: readonly string[]): number[] {
  const counts = config.rules.map(() => 0);
  if (counts.length === 0) return counts;
  for (const path of paths) {
    const { rule } = fileRule(config, path);
    if (rule !== null) counts[rule] = (counts[rule] ?? 0) + 1;
  }
  return counts;
}

/** Each rule with instructions and the paths it gives their rule, for the model. */
export function ruleInstructions(
  config: RuleSettings,
  paths: readonly string[],
): {
  readonly rule: number;
  readonly paths: readonly string[];
  readonly files: readonly string[];
  readonly text: string;
}[] {
  const files = config.rules.map((): string[] => []);
  for (const path of paths) {
    const { rule } = fileRule(config, path);
    if (rule !== null) files[rule]!.push(path);
  }
  return config.rules.flatMap((rule, index) =>
    rule.instructions === undefined || rule.instructions.trim() === "" || files[index]!.length === 0
      ? []
      : [{ rule: index, paths: rule.paths, files: files[index]!, text: rule.instructions }],
  );
}
