import { describe, expect, it } from "@jest/globals";
import { parseRepoConfig } from "../../../src/config/repo-config.ts";
import { DEFAULT_REPO_CONFIG, type RepoConfig } from "../../../src/config/repo-config-schema.ts";
import { isPathIncluded } from "../../../src/config/repo-paths.ts";

function ok(text: string | null): RepoConfig {
  const result = parseRepoConfig(text);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.config;
}

function errors(text: string): string[] {
  const result = parseRepoConfig(text);
  if (result.ok) throw new Error("expected errors");
  return result.errors.map((e) => `${e.path}: ${e.message}`);
}

describe("parseRepoConfig", () => {
  it.each([
    ["no file", null],
    ["an empty file", ""],
    ["only comments", "# nothing here\n"],
  ])("uses the defaults for %s", (_name, text) => {
    expect(ok(text)).toEqual(DEFAULT_REPO_CONFIG);
  });

  it("documents the defaults", () => {
    expect(DEFAULT_REPO_CONFIG).toMatchObject({
      enabled: true,
      review_drafts: false,
      ignore_bots: true,
      instructions: "",
      min_severity: "low",
      fail_on: "none",
      max_findings: 50,
      max_files: 3000,
      guidance: true,
      guidance_files: [],
      incremental: true,
      auto_review: true,
    });
    expect(DEFAULT_REPO_CONFIG.paths.include).toEqual(["**"]);
    expect(DEFAULT_REPO_CONFIG.paths.exclude).toContain("**/package-lock.json");
  });

  it("reads every key and keeps defaults for the rest", () => {
    const config = ok(
      "enabled: false\nreview_drafts: true\nignore_bots: false\npaths:\n  exclude: ['docs/**']\ninstructions: |\n  Focus on security.\nmin_severity: medium\nfail_on: high\nmax_findings: 100\nmax_files: 3000\nguidance: false\nguidance_files: [docs/review.md]\nincremental: false\nauto_review: false\n",
    );
    expect(config).toEqual({
      enabled: false,
      review_drafts: true,
      ignore_bots: false,
      paths: { include: ["**"], exclude: ["docs/**"] },
      instructions: "Focus on security.\n",
      min_severity: "medium",
      fail_on: "high",
      max_findings: 100,
      max_files: 3000,
      guidance: false,
      guidance_files: ["docs/review.md"],
      incremental: false,
      auto_review: false,
      budget: {},
      rules: [],
      locked: [],
    });
  });

  it("returns a fresh copy of the defaults each time", () => {
    const a = ok(null);
    a.paths.exclude.push("x");
    expect(ok(null).paths.exclude).not.toContain("x");
  });

  it.each([
    ["a wrong element type", "paths:\n  include: [3]\n", "paths.include.0: Expected string but received 3"],
    ["an unknown key", "enable: true\n", "enable: is not a known key"],
    ["an unknown nested key", "paths:\n  includes: ['a']\n", "paths.includes: is not a known key"],
    ["a wrong type", "enabled: 'yes'\n", 'enabled: Expected boolean but received "yes"'],
    [
      "YAML 1.1 booleans (they are strings in YAML 1.2)",
      "enabled: yes\n",
      'enabled: Expected boolean but received "yes"',
    ],
    [
      "an unknown severity",
      "min_severity: urgent\n",
      "min_severity: must be one of critical, high, medium, low, info",
    ],
    ["a bad fail_on", "fail_on: never\n", "fail_on: must be one of critical, high, medium, low, info, none"],
    ["max_findings over its cap", "max_findings: 500\n", "max_findings: must be at most 100"],
    ["max_files over its cap", "max_files: 3001\n", "max_files: must be at most 3000"],
    ["a fractional count", "max_findings: 2.5\n", "max_findings: must be a whole number"],
    ["a zero count", "max_files: 0\n", "max_files: must be at least 1"],
    ["a string for incremental", 'incremental: "no"\n', 'incremental: Expected boolean but received "no"'],
    ["a number for auto_review", "auto_review: 0\n", "auto_review: Expected boolean but received 0"],
    [
      "instructions that are too long",
      `instructions: "${"x".repeat(4001)}"\n`,
      "instructions: must be at most 4000 characters",
    ],
    [
      "too many globs",
      `paths:\n  exclude: [${Array.from({ length: 101 }, (_v, i) => `"g${i}"`).join(", ")}]\n`,
      "paths.exclude: must list at most 100 patterns",
    ],
    [
      "a glob that is too long",
      `paths:\n  include: ["${"a".repeat(257)}"]\n`,
      "paths.include.0: must be at most 256 characters",
    ],
    [
      "an absolute glob",
      "paths:\n  include: ['/src/**']\n",
      "paths.include.0: patterns are repository-relative: remove the leading /",
    ],
    ["an empty glob", "paths:\n  include: ['']\n", "paths.include.0: must not be empty"],
    ["guidance that is not a boolean", "guidance: 'no'\n", 'guidance: Expected boolean but received "no"'],
    [
      "a guidance file pattern",
      "guidance_files: ['docs/*.md']\n",
      "guidance_files.0: is a path, not a pattern",
    ],
    [
      "a guidance file outside the repository",
      "guidance_files: ['docs/../../x.md']\n",
      "guidance_files.0: must not contain empty, . or .. segments",
    ],
    [
      "an absolute guidance file",
      "guidance_files: ['/etc/passwd']\n",
      "guidance_files.0: patterns are repository-relative: remove the leading /",
    ],
    [
      "too many guidance files",
      `guidance_files: [${Array.from({ length: 11 }, (_v, i) => `"g${i}.md"`).join(", ")}]\n`,
      "guidance_files: must list at most 10 files",
    ],
    ["a list at the top level", "- a\n- b\n", "(root): must be a mapping of keys to values"],
    ["a scalar at the top level", "hello\n", "(root): must be a mapping of keys to values"],
  ])("reports %s with its dotted path", (_name, text, expected) => {
    expect(errors(text)).toContain(expected);
  });

  it("collects several errors at once", () => {
    expect(errors("enabled: 1\nmax_files: -1\nbogus: 2\n")).toHaveLength(3);
  });

  it.each([
    ["a syntax error", "paths: [a, b\n", /^\(yaml\): .*line \d+, column \d+/],
    ["a duplicate key", "enabled: true\nenabled: false\n", /^\(yaml\): Map keys must be unique/],
    ["an alias", "a: &x [1]\npaths:\n  include: *x\n", /^\(yaml\): anchors and aliases/],
    [
      "a billion-laughs bomb",
      'a: &a ["x","x"]\nb: &b [*a,*a]\nc: &c [*b,*b]\nd: [*c,*c]\n',
      /^\(yaml\): anchors and aliases/,
    ],
    ["a custom tag", "instructions: !!binary aGVsbG8=\n", /^\(yaml\): explicit tags/],
    ["an application tag", "enabled: !js/function 'x'\n", /^\(yaml\): explicit tags/],
    ["a file over 64 KiB", `# ${"x".repeat(70000)}\n`, /^\(file\): is larger than 64 KiB/],
  ])("refuses %s", (_name, text, pattern) => {
    expect(errors(text)[0]).toMatch(pattern);
  });
});

describe("isPathIncluded", () => {
  const config = (include: string[], exclude: string[]): RepoConfig => ({
    ...DEFAULT_REPO_CONFIG,
    paths: { include, exclude },
  });

  it.each<[string[], string[], string, boolean]>([
    [["**"], [], "src/a.ts", true],
    [["**"], [], ".github/workflows/ci.yml", true],
    [["src/**"], [], "test/a.ts", false],
    [["src/**"], ["**/*.test.ts"], "src/a.test.ts", false],
    [["**"], ["docs/**"], "docs/.hidden/x.md", false],
    [[], [], "src/a.ts", false],
  ])("include %j exclude %j: %s → %s", (include, exclude, path, expected) => {
    expect(isPathIncluded(config(include, exclude), path)).toBe(expected);
  });

  it.each([
    ["package-lock.json", false],
    ["web/yarn.lock", false],
    ["third_party/vendor/lib.go", false],
    ["dist/app.min.js", false],
    ["src/index.ts", true],
  ])("defaults: %s → %s", (path, expected) => {
    expect(isPathIncluded(DEFAULT_REPO_CONFIG, path)).toBe(expected);
  });
});
