// Which directory rule a file takes, and so its min_severity and fail_on: the first rule, in the
// merged order (the repository's rules, then the organisation's), one of whose patterns matches
// the path. First match, not "most specific": two patterns like `payments/**` and `**/*.sql` have
// no order of specificity, so a reader could not tell which wins without computing it; a list read
// top to bottom can. A rule that does not set a key leaves the file the top-level value. Each
// rule's patterns are one automaton of the bounded matcher (glob.ts), compiled once per settings.

import type { Severity } from "../domain/finding.ts";
import type { TimeSlices } from "../domain/time-slices.ts";
import { compileGlobsInSlices, type GlobSet } from "./glob.ts";
import type { DirectoryRule, RepoConfig } from "./repo-config-schema.ts";
import { globMatcher, validGlobs } from "./repo-paths.ts";

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

/**
 * The rule each of these paths takes (only those a rule matches), compiled and matched in slices
 * of the event loop as `paths` is (paths-in-slices.ts): the server does this for every changed
 * file, and 400 patterns against 3,000 long names must not hold its webhooks.
 */
export async function rulesOfPaths(
  config: Pick<RepoConfig, "rules">,
  paths: readonly string[],
  slices: TimeSlices,
): Promise<ReadonlyMap<string, number>> {
  const found = new Map<string, number>();
  if (config.rules.length === 0) return found;
  let sets = compiledInSlices.get(config.rules);
  if (sets === undefined) {
    sets = (async () => {
      const compiledSets: (GlobSet | null)[] = [];
      for (const rule of config.rules) {
        const valid = validGlobs(rule.paths);
        compiledSets.push(valid.length > 0 ? await compileGlobsInSlices(valid, slices) : null);
      }
      return compiledSets;
    })();
    compiledInSlices.set(config.rules, sets);
  }
  const compiledSets = await sets;
  for (const path of paths) {
    for (const [index, set] of compiledSets.entries()) {
      if (set !== null && (await set.matchesInSlices(path, slices))) {
        found.set(path, index);
        break;
      }
    }
    await slices.pause();
  }
  return found;
}

const compiledInSlices = new WeakMap<readonly DirectoryRule[], Promise<(GlobSet | null)[]>>();

/** How many of the paths each rule took (a path counts for its first match only). */
export function countRuleFiles(rules: number, ruleOf: ReadonlyMap<string, number>): number[] {
  const counts = Array.from({ length: rules }, () => 0);
  for (const index of ruleOf.values()) counts[index] = (counts[index] ?? 0) + 1;
  return counts;
}

/** Each rule with instructions and the paths it gives their rule, for the model. */
export function ruleInstructions(
  config: Pick<RepoConfig, "rules">,
  paths: readonly string[],
  ruleOf: ReadonlyMap<string, number>,
): { readonly paths: readonly string[]; readonly files: readonly string[]; readonly text: string }[] {
  const files = config.rules.map((): string[] => []);
  for (const path of paths) {
    const rule = ruleOf.get(path);
    if (rule !== undefined) files[rule]?.push(path);
  }
  return config.rules.flatMap((rule, index) =>
    rule.instructions === undefined || rule.instructions.trim() === "" || files[index]!.length === 0
      ? []
      : [{ paths: rule.paths, files: files[index]!, text: rule.instructions }],
  );
}
