// The settings' layers merged (config/settings-layers.ts) and the directory rule a file takes
// (config/directory-rules.ts): the repository overrides the organisation key by key, never a
// locked key, never above the organisation's caps; rules of both files apply, the repository's
// first, and the first match wins; every error names its file and its key.

import { describe, expect, it } from "@jest/globals";
import {
  countRuleFiles,
  fileRule,
  ruleInstructions,
  rulesOfPaths,
} from "../../../src/config/directory-rules.ts";
import { defaultRepoConfig } from "../../../src/config/repo-config-schema.ts";
import { mergeSettingsLayers } from "../../../src/config/settings-layers.ts";
import { TimeSlices } from "../../../src/domain/time-slices.ts";

const OPERATOR = { source: "the operator's settings", keys: ["AUTO_REVIEW_AUTHORS=members"] };
const ORG_SOURCE = "octo/.github: .github/loupe.yml on its default branch";
const REPO_SOURCE = ".github/loupe.yml on the default branch";

function merge(organisation: string | null, repository: string | null) {
  return mergeSettingsLayers({
    operator: OPERATOR,
    organisation:
      organisation === null ? null : { file: { kind: "found", text: organisation }, source: ORG_SOURCE },
    repository: {
      file: repository === null ? { kind: "missing" } : { kind: "found", text: repository },
      source: REPO_SOURCE,
    },
  });
}

function merged(organisation: string | null, repository: string | null) {
  const result = merge(organisation, repository);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result;
}

describe("the settings' layers", () => {
  it("without files: the defaults, and only the operator's layer", () => {
    const { config, applied } = merged(null, null);
    expect(config).toEqual(defaultRepoConfig());
    expect(applied).toEqual({ layers: [{ layer: "operator", ...OPERATOR, ignored: [] }], rules: [] });
  });

  it("the organisation's keys apply where the repository says nothing; the repository's win key by key", () => {
    const { config, applied } = merged(
      "fail_on: high\nmin_severity: medium\nmax_findings: 20\n",
      "min_severity: info\n",
    );
    expect(config).toMatchObject({
      fail_on: "high",
      min_severity: "info",
      max_findings: 20,
      max_files: 3000,
    });
    expect(applied.layers.slice(1)).toEqual([
      {
        layer: "organisation",
        source: ORG_SOURCE,
        keys: ["fail_on", "min_severity", "max_findings"],
        ignored: [],
      },
      { layer: "repository", source: REPO_SOURCE, keys: ["min_severity"], ignored: [] },
    ]);
  });

  it("a locked key keeps the organisation's value, and the repository's attempt is shown as not applied", () => {
    const { config, applied } = merged(
      "fail_on: high\nlocked: [fail_on, instructions]\n",
      "fail_on: none\ninstructions: ignore everything\nmax_findings: 5\n",
    );
    expect(config.fail_on).toBe("high");
    expect(config.instructions).toBe("");
    expect(config.max_findings).toBe(5);
    expect(config.locked).toEqual(["fail_on", "instructions"]);
    expect(applied.layers[2]).toEqual({
      layer: "repository",
      source: REPO_SOURCE,
      keys: ["max_findings"],
      ignored: [
        { key: "fail_on", reason: "locked by the organisation" },
        { key: "instructions", reason: "locked by the organisation" },
      ],
    });
  });

  it("a locked key cannot come back through a repository's directory rule", () => {
    const { config, applied } = merged(
      "fail_on: high\nlocked: [fail_on]\n",
      "rules:\n  - paths: ['tests/**']\n    fail_on: none\n    min_severity: info\n",
    );
    expect(config.rules).toEqual([{ paths: ["tests/**"], min_severity: "info" }]);
    expect(fileRule(config, "tests/a.ts")).toEqual({
      rule: 0,
      min_severity: "info",
      fail_on: "high",
      instructions: null,
    });
    expect(applied.layers[2]!.ignored).toEqual([
      { key: "rules[0].fail_on", reason: "locked by the organisation" },
    ]);
  });

  it("a repository lowers the organisation's budget caps, never raises them", () => {
    const { config, applied } = merged(
      "budget:\n  tokens_per_day: 100000\n  dollars_per_month: 50\n",
      "budget:\n  tokens_per_day: 900000\n  dollars_per_month: 10\n  tokens_per_month: 2000000\n",
    );
    expect(config.budget).toEqual({
      tokens_per_day: 100000,
      dollars_per_month: 10,
      tokens_per_month: 2000000,
    });
    expect(applied.layers[2]!.ignored).toEqual([
      { key: "budget.tokens_per_day", reason: "cannot raise the organisation's cap" },
    ]);
  });

  it("a repository tightens the organisation's author policy, never loosens it", () => {
    expect(
      merged("auto_review_authors: members\n", "auto_review_authors: writers\n").config.auto_review_authors,
    ).toBe("writers");
    const loosened = merged("auto_review_authors: members\n", "auto_review_authors: everyone\n");
    expect(loosened.config.auto_review_authors).toBe("members");
    expect(loosened.applied.layers[2]!.ignored).toEqual([
      { key: "auto_review_authors", reason: "cannot loosen the organisation's policy" },
    ]);
  });

  it("every error names its file and its key; a repository cannot lock keys", () => {
    const result = merge("fail_on: huge\n", "locked: [fail_on]\nmax_findings: 0\n");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      {
        layer: "organisation",
        file: ORG_SOURCE,
        path: "fail_on",
        message: "must be one of critical, high, medium, low, info, none",
        value: '"huge"',
      },
      {
        layer: "repository",
        file: REPO_SOURCE,
        path: "max_findings",
        message: "must be at least 1",
        value: "0",
      },
    ]);
    const lockedOnly = merge(null, "locked: [fail_on]\n");
    expect(lockedOnly.ok ? [] : lockedOnly.errors.map((e) => [e.file, e.path])).toEqual([
      [REPO_SOURCE, "locked"],
    ]);
  });

  it("an unreadable organisation file is an error of that file, not a missing layer", () => {
    const result = mergeSettingsLayers({
      operator: OPERATOR,
      organisation: {
        file: { kind: "unreadable", message: ".github/loupe.yml is not a regular file." },
        source: ORG_SOURCE,
      },
      repository: { file: { kind: "missing" }, source: REPO_SOURCE },
    });
    expect(result).toEqual({
      ok: false,
      errors: [
        {
          layer: "organisation",
          file: ORG_SOURCE,
          path: "(file)",
          message: ".github/loupe.yml is not a regular file.",
        },
      ],
    });
  });
});

describe("directory rules", () => {
  const org =
    "fail_on: medium\nrules:\n  - paths: ['payments/**']\n    fail_on: low\n    instructions: 'Money: check rounding.'\n  - paths: ['**/*.sql']\n    min_severity: high\n";
  const repo = "rules:\n  - paths: ['tests/**', 'e2e/**']\n    fail_on: none\n";

  it("the repository's rules come first, then the organisation's; the first match wins", () => {
    const { config, applied } = merged(org, repo);
    expect(applied.rules.map((r) => [r.layer, r.index, r.paths, r.sets])).toEqual([
      ["repository", 0, ["tests/**", "e2e/**"], ["fail_on"]],
      ["organisation", 0, ["payments/**"], ["fail_on", "instructions"]],
      ["organisation", 1, ["**/*.sql"], ["min_severity"]],
    ]);
    expect(fileRule(config, "tests/payments/fee.test.ts")).toMatchObject({ rule: 0, fail_on: "none" });
    // `payments/**` comes before `**/*.sql`: the first rule's keys, the top-level for the others.
    expect(fileRule(config, "payments/fees.sql")).toEqual({
      rule: 1,
      min_severity: "low",
      fail_on: "low",
      instructions: "Money: check rounding.",
    });
    expect(fileRule(config, "db/fees.sql")).toMatchObject({
      rule: 2,
      min_severity: "high",
      fail_on: "medium",
    });
    expect(fileRule(config, "src/app.ts")).toEqual({
      rule: null,
      min_severity: "low",
      fail_on: "medium",
      instructions: null,
    });
  });

  it("matches in slices as fileRule does, counts each file once, and tells the model only matched files' instructions", async () => {
    const { config } = merged(org, repo);
    const paths = ["tests/a.ts", "e2e/b.ts", "payments/c.ts", "payments/d.sql", "db/e.sql", "src/f.ts"];
    const ruleOf = await rulesOfPaths(config, paths, new TimeSlices());
    for (const path of paths) expect(ruleOf.get(path) ?? null).toBe(fileRule(config, path).rule);
    expect(countRuleFiles(config.rules.length, ruleOf)).toEqual([2, 2, 1]);
    expect(ruleInstructions(config, paths, ruleOf)).toEqual([
      { paths: ["payments/**"], files: ["payments/c.ts", "payments/d.sql"], text: "Money: check rounding." },
    ]);
    expect(ruleInstructions(config, ["src/f.ts"], ruleOf)).toEqual([]);
  });

  it("keeps the bounded matcher's limits: a rule's patterns are checked like paths'", () => {
    const result = merge(null, "rules:\n  - paths: ['!tests/**']\n  - paths: []\n");
    expect(result.ok ? [] : result.errors.map((e) => [e.path, e.message])).toEqual([
      ["rules.0.paths.0", "negation (!) is not supported: use paths.exclude"],
      ["rules.1.paths", "must list at least one pattern"],
    ]);
    const many = `rules:\n${Array.from({ length: 21 }, (_, i) => `  - paths: ['d${i}/**']\n`).join("")}`;
    expect(merge(null, many).ok).toBe(false);
  });
});
