// The settings of one review, from its layers: the schema's defaults, then the organisation's file
// (`<owner>/.github` on GitHub, GITLAB_CONFIG_PROJECT on GitLab), then the repository's file, key by
// key. The organisation's `locked:` keys keep its value whatever the repository says; its budget
// caps and author policy can only be tightened; the operator's caps (the server's environment)
// bound both and are applied where they always were (author-step, budget-step). Directory rules of
// both files apply, the repository's first (directory-rules.ts: first match wins). Pure: the files
// arrive as text, and what each layer set or could not set comes back with the settings, so every
// report can show it.

import { type AuthorPolicy, stricterPolicy } from "../domain/author-policy.ts";
import type { ConfigFile } from "./config-file-read.ts";
import { type ConfigLayerResult, parseConfigLayer } from "./repo-config.ts";
import {
  type DirectoryRule,
  defaultRepoConfig,
  LOCKABLE_KEYS,
  type LockableKey,
  type RepoConfig,
} from "./repo-config-schema.ts";

export type LayerName = "operator" | "organisation" | "repository";

/** One layer that applied: where it came from, the keys it set, and the keys it could not set. */
export interface AppliedLayer {
  readonly layer: LayerName;
  readonly source: string;
  readonly keys: readonly string[];
  readonly ignored: readonly { readonly key: string; readonly reason: string }[];
}

/** One directory rule of the merged settings, in the order rules are matched. */
export interface AppliedRule {
  readonly layer: "organisation" | "repository";
  /** Its place in its own file's `rules:` (0-based), for naming it: `rules[2]`. */
  readonly index: number;
  readonly paths: readonly string[];
  /** The keys the rule sets for its files (min_severity, fail_on, instructions). */
  readonly sets: readonly string[];
  /** How many of the reviewed files it gives their rule (counted once the change is known). */
  readonly files: number;
}

export interface AppliedSettings {
  readonly layers: readonly AppliedLayer[];
  readonly rules: readonly AppliedRule[];
}

/** An error in one layer's file: the file, the key's dotted path, and what is wrong. */
export interface LayerError {
  readonly layer: "organisation" | "repository";
  readonly file: string;
  readonly path: string;
  readonly message: string;
  /** The value found, for a wrong value (repo-config.ts). */
  readonly value?: string;
}

export type MergedSettings =
  | { readonly ok: true; readonly config: RepoConfig; readonly applied: AppliedSettings }
  | { readonly ok: false; readonly errors: readonly LayerError[] };

export interface SettingsLayersInput {
  /** What the operator set that bounds every repository (shown, and applied by its own steps). */
  readonly operator: { readonly source: string; readonly keys: readonly string[] };
  /** null: no organisation file (none, or the host may not read it). */
  readonly organisation: ConfigFile | null;
  readonly repository: ConfigFile;
  /** How a layer's file is parsed: the ports' parser (the same one for both files). */
  readonly parse?: (text: string | null) => ConfigLayerResult;
}

// Every key but `locked` is one of LOCKABLE_KEYS, and every lockable key is a key: checked here.
type SchemaKey = Exclude<keyof RepoConfig, "locked">;
const _everyKeyLockable: [SchemaKey] extends [LockableKey] ? true : never = true;
const _everyLockableAKey: [LockableKey] extends [SchemaKey] ? true : never = true;
void _everyKeyLockable;
void _everyLockableAKey;

const RULE_KEYS = ["min_severity", "fail_on", "instructions"] as const;

export function mergeSettingsLayers(input: SettingsLayersInput): MergedSettings {
  const parse = input.parse ?? parseConfigLayer;
  const errors: LayerError[] = [];
  const read = (layer: LayerError["layer"], file: ConfigFile | null) => {
    if (file === null || file.file.kind === "missing") return null;
    const parsed =
      file.file.kind === "unreadable"
        ? { ok: false as const, errors: [{ path: "(file)", message: file.file.message }] }
        : parse(file.file.text);
    if (!parsed.ok) {
      errors.push(...parsed.errors.map((e) => ({ layer, file: file.source, ...e })));
      return null;
    }
    return { ...parsed, source: file.source };
  };
  const organisation = read("organisation", input.organisation);
  const repository = read("repository", input.repository);
  if (repository?.keys.includes("locked")) {
    errors.push({
      layer: "repository",
      file: repository.source,
      path: "locked",
      message: "only the organisation's file can lock keys: remove `locked` from the repository's file",
    });
  }
  if (errors.length > 0) return { ok: false, errors };

  const config = defaultRepoConfig();
  const layers: AppliedLayer[] = [{ layer: "operator", ...input.operator, ignored: [] }];
  const locked = new Set<string>(organisation?.config.locked ?? []);
  const rules: { rule: DirectoryRule; applied: Omit<AppliedRule, "files"> }[] = [];
  const orgRules = (organisation?.config.rules ?? []).map((rule, index) => ({
    rule,
    applied: appliedRule("organisation", index, rule),
  }));

  if (organisation !== null) {
    const keys = organisation.keys.filter(isLockable);
    for (const key of keys) if (key !== "rules") assign(config, organisation.config, key);
    layers.push({
      layer: "organisation",
      source: organisation.source,
      keys: withLocked(organisation.keys),
      ignored: [],
    });
  }
  if (repository !== null) {
    const keys: string[] = [];
    const ignored: { key: string; reason: string }[] = [];
    for (const key of repository.keys.filter(isLockable)) {
      if (locked.has(key)) {
        ignored.push({ key, reason: "locked by the organisation" });
        continue;
      }
      if (key === "rules") {
        keys.push(key);
        repository.config.rules.forEach((rule, index) => {
          const kept = withoutLocked(rule, locked);
          for (const dropped of RULE_KEYS.filter((k) => rule[k] !== undefined && kept[k] === undefined)) {
            ignored.push({ key: `rules[${index}].${dropped}`, reason: "locked by the organisation" });
          }
          rules.push({ rule: kept, applied: appliedRule("repository", index, kept) });
        });
        continue;
      }
      if (key === "budget" && organisation?.keys.includes("budget")) {
        const lowered = lowerBudget(config.budget, repository.config.budget);
        config.budget = lowered.budget;
        ignored.push(
          ...lowered.raised.map((k) => ({
            key: `budget.${k}`,
            reason: "cannot raise the organisation's cap",
          })),
        );
        if (lowered.raised.length < Object.keys(repository.config.budget).length) keys.push(key);
        continue;
      }
      if (key === "auto_review_authors" && config.auto_review_authors !== undefined) {
        const wanted = repository.config.auto_review_authors as AuthorPolicy;
        const stricter = stricterPolicy(config.auto_review_authors, wanted);
        if (stricter !== wanted) {
          ignored.push({ key, reason: "cannot loosen the organisation's policy" });
          continue;
        }
      }
      assign(config, repository.config, key);
      keys.push(key);
    }
    layers.push({ layer: "repository", source: repository.source, keys, ignored });
  }
  rules.push(...orgRules);
  config.rules = rules.map((r) => r.rule);
  config.locked = [...(organisation?.config.locked ?? [])];
  return {
    ok: true,
    config,
    applied: { layers, rules: rules.map((r) => ({ ...r.applied, files: 0 })) },
  };
}

function isLockable(key: string): key is LockableKey {
  return (LOCKABLE_KEYS as readonly string[]).includes(key);
}

/** The organisation's keys as shown: `locked` is a key it set too. */
function withLocked(keys: readonly string[]): string[] {
  return keys.filter((key) => isLockable(key) || key === "locked");
}

function assign<K extends LockableKey>(config: RepoConfig, from: RepoConfig, key: K): void {
  config[key] = structuredClone(from[key]);
}

function appliedRule(
  layer: AppliedRule["layer"],
  index: number,
  rule: DirectoryRule,
): Omit<AppliedRule, "files"> {
  return { layer, index, paths: [...rule.paths], sets: RULE_KEYS.filter((k) => rule[k] !== undefined) };
}

/** A repository's rule without the keys the organisation locked (its patterns still count). */
function withoutLocked(rule: DirectoryRule, locked: ReadonlySet<string>): DirectoryRule {
  const kept: { -readonly [K in keyof DirectoryRule]: DirectoryRule[K] } = { paths: [...rule.paths] };
  if (rule.min_severity !== undefined && !locked.has("min_severity")) kept.min_severity = rule.min_severity;
  if (rule.fail_on !== undefined && !locked.has("fail_on")) kept.fail_on = rule.fail_on;
  if (rule.instructions !== undefined && !locked.has("instructions")) kept.instructions = rule.instructions;
  return kept;
}

type Budget = RepoConfig["budget"];

/** Each cap the lower of the two; a cap the repository sets above the organisation's is not taken. */
function lowerBudget(organisation: Budget, repository: Budget): { budget: Budget; raised: string[] } {
  const budget: { -readonly [K in keyof Budget]: Budget[K] } = { ...organisation };
  const raised: string[] = [];
  for (const key of Object.keys(repository) as (keyof Budget)[]) {
    const wanted = repository[key];
    if (wanted === undefined) continue;
    const cap = organisation[key];
    if (cap !== undefined && wanted > cap) raised.push(key);
    else budget[key] = wanted;
  }
  return { budget, raised };
}
