// The schema of `.github/loupe.yml`: every key, its type, its limits and its default, in one
// valibot schema from which the configuration's type is inferred. Strict: unknown keys, wrong
// types and out-of-range values are errors with their dotted path; nothing is guessed or clamped.

import * as v from "valibot";
import { AUTHOR_POLICIES } from "../domain/author-policy.ts";
import { SEVERITIES } from "../domain/finding.ts";
import { checkGlob, GLOB_LIMITS } from "./glob.ts";

export const LIMITS = {
  instructions: 4000,
  globs: 100,
  globLength: GLOB_LIMITS.length,
  maxFindings: 100,
  maxFiles: 3000,
  guidanceFiles: 10,
  /** Directory rules in one file, and patterns in one rule. */
  rules: 20,
  rulePaths: 20,
} as const;

/** Lockfiles and vendored or minified code: large, generated, and not worth a model's budget. */
export const DEFAULT_EXCLUDES: readonly string[] = [
  "**/package-lock.json",
  "**/npm-shrinkwrap.json",
  "**/yarn.lock",
  "**/pnpm-lock.yaml",
  "**/Cargo.lock",
  "**/Gemfile.lock",
  "**/poetry.lock",
  "**/composer.lock",
  "**/go.sum",
  "**/*.min.js",
  "**/*.min.css",
  "**/vendor/**",
  "**/node_modules/**",
];

const SEVERITY = v.picklist(SEVERITIES, `must be one of ${SEVERITIES.join(", ")}`);

export const Glob = v.pipe(
  v.string(),
  v.minLength(1, "must not be empty"),
  v.maxLength(LIMITS.globLength, `must be at most ${LIMITS.globLength} characters`),
  v.check((g) => !g.startsWith("/"), "patterns are repository-relative: remove the leading /"),
  v.check((g) => !g.includes("\\") && !g.includes("\u0000"), "must not contain a backslash or NUL"),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const check = checkGlob(dataset.value);
    if (!check.ok) addIssue({ message: check.message });
  }),
);
const FilePath = v.pipe(
  Glob,
  v.check((p) => !/[*?[\]{}]/.test(p), "is a path, not a pattern"),
  v.check(
    (p) => !p.split("/").some((part) => part === ".." || part === "." || part === ""),
    "must not contain empty, . or .. segments",
  ),
);
const FAIL_ON_VALUES = [...SEVERITIES, "none"] as const;
const FAIL_ON = v.picklist(FAIL_ON_VALUES, `must be one of ${FAIL_ON_VALUES.join(", ")}`);
const INSTRUCTIONS = v.pipe(
  v.string(),
  v.maxLength(LIMITS.instructions, `must be at most ${LIMITS.instructions} characters`),
);
const Globs = v.pipe(v.array(Glob), v.maxLength(LIMITS.globs, `must list at most ${LIMITS.globs} patterns`));
const count = (cap: number) =>
  v.pipe(
    v.number(),
    v.integer("must be a whole number"),
    v.minValue(1, "must be at least 1"),
    v.maxValue(cap, `must be at most ${cap}`),
  );

const positiveTokens = v.pipe(
  v.number(),
  v.integer("must be a whole number of tokens"),
  v.minValue(1, "must be at least 1"),
);
const positiveDollars = v.pipe(v.number(), v.gtValue(0, "must be more than 0 dollars"));

/** One directory rule: the changed files its patterns match, and what differs for them. */
const DirectoryRuleSchema = v.strictObject({
  paths: v.pipe(
    v.array(Glob),
    v.minLength(1, "must list at least one pattern"),
    v.maxLength(LIMITS.rulePaths, `must list at most ${LIMITS.rulePaths} patterns`),
  ),
  min_severity: v.optional(SEVERITY),
  fail_on: v.optional(FAIL_ON),
  instructions: v.optional(INSTRUCTIONS),
});

export type DirectoryRule = v.InferOutput<typeof DirectoryRuleSchema>;

/** The keys an organisation's `locked:` may name: every key but `locked` itself. */
export const LOCKABLE_KEYS = [
  "enabled",
  "review_drafts",
  "ignore_bots",
  "paths",
  "instructions",
  "min_severity",
  "fail_on",
  "max_findings",
  "max_files",
  "guidance",
  "guidance_files",
  "incremental",
  "auto_review",
  "budget",
  "auto_review_authors",
  "rules",
] as const;

export type LockableKey = (typeof LOCKABLE_KEYS)[number];

/** Every key with its default: a missing key (or a missing file) takes the value written here. */
export const RepoConfigSchema = v.strictObject({
  enabled: v.optional(v.boolean(), true),
  review_drafts: v.optional(v.boolean(), false),
  ignore_bots: v.optional(v.boolean(), true),
  paths: v.optional(
    v.strictObject({
      include: v.optional(Globs, () => ["**"]),
      exclude: v.optional(Globs, () => [...DEFAULT_EXCLUDES]),
    }),
    () => ({ include: ["**"], exclude: [...DEFAULT_EXCLUDES] }),
  ),
  instructions: v.optional(INSTRUCTIONS, ""),
  min_severity: v.optional(SEVERITY, "low"),
  fail_on: v.optional(FAIL_ON, "none"),
  max_findings: v.optional(count(LIMITS.maxFindings), 50),
  max_files: v.optional(count(LIMITS.maxFiles), 3000),
  /** Give the model the repository's AI guidance files (AGENTS.md, CLAUDE.md, Copilot's). */
  guidance: v.optional(v.boolean(), true),
  /** More guidance files to give the model, by repository-relative path. */
  guidance_files: v.optional(
    v.pipe(
      v.array(FilePath),
      v.maxLength(LIMITS.guidanceFiles, `must list at most ${LIMITS.guidanceFiles} files`),
    ),
    () => [],
  ),
  /** Review only the commits since Loupe's last review when the history allows it. */
  incremental: v.optional(v.boolean(), true),
  /** Review on every push; with false, only a command or the re-run button starts a review. */
  auto_review: v.optional(v.boolean(), true),
  /**
   * Whose pull requests are reviewed automatically; absent: the operator's AUTO_REVIEW_AUTHORS.
   * It can only tighten the operator's choice (domain/author-policy.ts).
   */
  /**
   * The repository's own spend caps, counted for it alone; the installation's caps still apply,
   * so a repository can lower what it may spend, never raise it.
   */
  budget: v.optional(
    v.strictObject({
      tokens_per_day: v.optional(positiveTokens),
      tokens_per_month: v.optional(positiveTokens),
      dollars_per_day: v.optional(positiveDollars),
      dollars_per_month: v.optional(positiveDollars),
      /** Across all of a pull request's pushes and re-runs; the lower of this and the operator's wins. */
      tokens_per_pull_request: v.optional(positiveTokens),
      dollars_per_pull_request: v.optional(positiveDollars),
    }),
    () => ({}),
  ),
  auto_review_authors: v.optional(
    v.picklist(AUTHOR_POLICIES, `must be one of ${AUTHOR_POLICIES.join(", ")}`),
  ),
  /**
   * Directory rules: the first rule whose patterns match a file gives it its own min_severity,
   * fail_on and instructions (settings-layers.ts orders the layers' rules).
   */
  rules: v.optional(
    v.pipe(
      v.array(DirectoryRuleSchema),
      v.maxLength(LIMITS.rules, `must list at most ${LIMITS.rules} rules`),
    ),
    () => [],
  ),
  /** Keys a repository's own file cannot change: only the organisation's file may say this. */
  locked: v.optional(
    v.pipe(
      v.array(v.picklist(LOCKABLE_KEYS, `must be one of ${LOCKABLE_KEYS.join(", ")}`)),
      v.maxLength(LOCKABLE_KEYS.length, `must list at most ${LOCKABLE_KEYS.length} keys`),
    ),
    () => [],
  ),
});

export type RepoConfig = v.InferOutput<typeof RepoConfigSchema>;

/** The configuration of a repository without `.github/loupe.yml` (a fresh copy each time). */
export function defaultRepoConfig(): RepoConfig {
  return v.parse(RepoConfigSchema, {});
}

/** The defaults, for reading (tests and documentation); a review gets its own copy. */
export const DEFAULT_REPO_CONFIG: Readonly<RepoConfig> = Object.freeze(defaultRepoConfig());
