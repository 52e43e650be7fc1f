// `.github/loupe.yml`, read from the default branch (so a pull request cannot change how it is
// reviewed). Strict: unknown keys, wrong types and out-of-range values are errors with their
// dotted path, shown on the check run; nothing is guessed or silently clamped.

import * as v from "valibot";
import { isAlias, isNode, parseDocument, visit } from "yaml";
import { SEVERITIES, type Severity } from "../domain/finding.ts";
import { checkGlob, compileGlobs, GLOB_LIMITS } from "./glob.ts";

export interface RepoConfig {
  enabled: boolean;
  review_drafts: boolean;
  ignore_bots: boolean;
  paths: { include: string[]; exclude: string[] };
  instructions: string;
  min_severity: Severity;
  fail_on: Severity | "none";
  max_findings: number;
  max_files: number;
  /** Give the model the repository's AI guidance files (AGENTS.md, CLAUDE.md, Copilot's). */
  guidance: boolean;
  /** More guidance files to give the model, by repository-relative path. */
  guidance_files: string[];
  /** Review only the commits since Loupe's last review when the history allows it. */
  incremental: boolean;
  /** Review on every push; with false, only a command or the re-run button starts a review. */
  auto_review: boolean;
}

export type RepoConfigResult =
  | { ok: true; config: RepoConfig }
  | { ok: false; errors: { path: string; message: string }[] };

export const REPO_CONFIG_PATH = ".github/loupe.yml";
export const MAX_CONFIG_BYTES = 64 * 1024;
export const LIMITS = {
  instructions: 4000,
  globs: 100,
  globLength: GLOB_LIMITS.length,
  maxFindings: 100,
  maxFiles: 3000,
  guidanceFiles: 10,
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

export const DEFAULT_REPO_CONFIG: RepoConfig = Object.freeze({
  enabled: true,
  review_drafts: false,
  ignore_bots: true,
  paths: Object.freeze({ include: ["**"], exclude: [...DEFAULT_EXCLUDES] }),
  instructions: "",
  min_severity: "low",
  fail_on: "none",
  max_findings: 50,
  max_files: 300,
  guidance: true,
  guidance_files: Object.freeze([]) as unknown as string[],
  incremental: true,
  auto_review: true,
}) as RepoConfig;

const SEVERITY = v.picklist(SEVERITIES, `must be one of ${SEVERITIES.join(", ")}`);

const Glob = v.pipe(
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
const Globs = v.pipe(v.array(Glob), v.maxLength(LIMITS.globs, `must list at most ${LIMITS.globs} patterns`));
const count = (cap: number) =>
  v.pipe(
    v.number(),
    v.integer("must be a whole number"),
    v.minValue(1, "must be at least 1"),
    v.maxValue(cap, `must be at most ${cap}`),
  );

const RepoConfigSchema = v.strictObject({
  enabled: v.optional(v.boolean()),
  review_drafts: v.optional(v.boolean()),
  ignore_bots: v.optional(v.boolean()),
  paths: v.optional(v.strictObject({ include: v.optional(Globs), exclude: v.optional(Globs) })),
  instructions: v.optional(
    v.pipe(v.string(), v.maxLength(LIMITS.instructions, `must be at most ${LIMITS.instructions} characters`)),
  ),
  min_severity: v.optional(SEVERITY),
  fail_on: v.optional(
    v.picklist([...SEVERITIES, "none"], `must be one of ${[...SEVERITIES, "none"].join(", ")}`),
  ),
  max_findings: v.optional(count(LIMITS.maxFindings)),
  max_files: v.optional(count(LIMITS.maxFiles)),
  guidance: v.optional(v.boolean()),
  guidance_files: v.optional(
    v.pipe(
      v.array(FilePath),
      v.maxLength(LIMITS.guidanceFiles, `must list at most ${LIMITS.guidanceFiles} files`),
    ),
  ),
  incremental: v.optional(v.boolean()),
  auto_review: v.optional(v.boolean()),
});

type Errors = { path: string; message: string }[];

export function parseRepoConfig(yamlText: string | null): RepoConfigResult {
  if (yamlText === null) return { ok: true, config: cloneDefaults() };
  if (Buffer.byteLength(yamlText, "utf8") > MAX_CONFIG_BYTES) {
    return fail("(file)", `is larger than ${MAX_CONFIG_BYTES / 1024} KiB`);
  }
  const doc = parseDocument(yamlText, {
    version: "1.2",
    schema: "core",
    uniqueKeys: true,
    prettyErrors: true,
  });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      errors: doc.errors.slice(0, 10).map((e) => ({ path: "(yaml)", message: firstLine(e.message) })),
    };
  }
  const structural: Errors = [];
  visit(doc, {
    Node(_key, node) {
      if (isAlias(node))
        structural.push({ path: "(yaml)", message: "anchors and aliases (*name) are not supported" });
      else if (isNode(node) && typeof node.tag === "string") {
        structural.push({
          path: "(yaml)",
          message: `explicit tags (${node.tag.slice(0, 40)}) are not supported`,
        });
      }
    },
  });
  if (structural.length > 0) return { ok: false, errors: structural.slice(0, 10) };
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 0 });
  } catch {
    return fail("(yaml)", "could not be read as plain data");
  }
  if (data === null || data === undefined) return { ok: true, config: cloneDefaults() }; // empty file
  if (typeof data !== "object" || Array.isArray(data))
    return fail("(root)", "must be a mapping of keys to values");
  const parsed = v.safeParse(RepoConfigSchema, data);
  if (!parsed.success) {
    return { ok: false, errors: parsed.issues.slice(0, 20).map((issue) => toError(issue)) };
  }
  const o = parsed.output;
  const d = DEFAULT_REPO_CONFIG;
  const config: RepoConfig = {
    enabled: o.enabled ?? d.enabled,
    review_drafts: o.review_drafts ?? d.review_drafts,
    ignore_bots: o.ignore_bots ?? d.ignore_bots,
    paths: {
      include: o.paths?.include ?? [...d.paths.include],
      exclude: o.paths?.exclude ?? [...d.paths.exclude],
    },
    instructions: o.instructions ?? d.instructions,
    min_severity: o.min_severity ?? d.min_severity,
    fail_on: o.fail_on ?? d.fail_on,
    max_findings: o.max_findings ?? d.max_findings,
    max_files: o.max_files ?? d.max_files,
    guidance: o.guidance ?? d.guidance,
    guidance_files: o.guidance_files ?? [...d.guidance_files],
    incremental: o.incremental ?? d.incremental,
    auto_review: o.auto_review ?? d.auto_review,
  };
  return { ok: true, config };
}

function toError(issue: v.BaseIssue<unknown>): { path: string; message: string } {
  const path = v.getDotPath(issue) ?? "(root)";
  if (issue.type === "strict_object" && issue.kind === "schema") {
    return { path, message: "is not a known key" };
  }
  return { path, message: issue.message.replace(/^Invalid (?:type|value|length): /, "") };
}

const matchers = new WeakMap<RepoConfig["paths"], (path: string) => boolean>();

/**
 * Whether a path matches any of these repository globs, with the same matching as `paths`
 * (glob.ts: time linear in the path). Patterns that break the `paths` rules (length, leading /,
 * backslash, NUL, the glob limits) are ignored, so a glob from any repository file is bounded
 * like one from loupe.yml.
 */
export function globMatcher(patterns: readonly string[]): (path: string) => boolean {
  const valid = validGlobs(patterns);
  return valid.length > 0 ? compileGlobs(valid) : () => false;
}

/** The patterns that keep the `paths` rules (at most as many as `paths` allows). */
export function validGlobs(patterns: readonly string[]): string[] {
  return patterns.filter((p) => v.is(Glob, p)).slice(0, LIMITS.globs);
}

/** Included when some include pattern matches and no exclude pattern does. */
export function isPathIncluded(config: RepoConfig, path: string): boolean {
  let match = matchers.get(config.paths);
  if (match === undefined) {
    const { include, exclude } = config.paths;
    const inc = globMatcher(include);
    const exc = globMatcher(exclude);
    match = (p: string) => inc(p) && !exc(p);
    matchers.set(config.paths, match);
  }
  return match(path);
}

function cloneDefaults(): RepoConfig {
  const d = DEFAULT_REPO_CONFIG;
  return {
    ...d,
    paths: { include: [...d.paths.include], exclude: [...d.paths.exclude] },
    guidance_files: [...d.guidance_files],
  };
}

function fail(path: string, message: string): RepoConfigResult {
  return { ok: false, errors: [{ path, message }] };
}

function firstLine(message: string): string {
  return message.split("\n")[0]!.replace(/:$/, "").slice(0, 300);
}
