// `loupe config show`: the settings one changed file is reviewed with, one key a line, each with
// the layer that set it — the schema's default, the organisation's file, the repository's file, or
// the directory rule the path takes (first match wins) — then the layers and the rules in order.

import { fileRule } from "../config/directory-rules.ts";
import type { RepoConfig } from "../config/repo-config-schema.ts";
import type { AppliedSettings } from "../config/settings-layers.ts";

const RULE_KEYS = new Set(["min_severity", "fail_on", "instructions"]);

export function describeSettings(config: RepoConfig, applied: AppliedSettings, path: string): string {
  const rule = fileRule(config, path);
  const ruleOf = rule.rule === null ? null : applied.rules[rule.rule]!;
  const setBy = (key: string): string => {
    if (ruleOf !== null && RULE_KEYS.has(key) && ruleOf.sets.includes(key))
      return `${ruleOf.layer} rules[${ruleOf.index}] ${JSON.stringify(ruleOf.paths)}`;
    for (const layer of ["repository", "organisation"] as const) {
      const found = applied.layers.find((l) => l.layer === layer);
      if (found?.keys.includes(key)) return `${layer} (${found.source})`;
    }
    return "default";
  };
  const values: Record<string, unknown> = {
    ...config,
    min_severity: rule.min_severity,
    fail_on: rule.fail_on,
    instructions: rule.instructions ?? config.instructions,
  };
  const lines = [`Settings for ${JSON.stringify(path)}:`];
  for (const [key, value] of Object.entries(values)) {
    if (key === "rules" || key === "locked") continue;
    lines.push(`  ${key}: ${JSON.stringify(value ?? null)}  ← ${setBy(key)}`);
  }
  lines.push(
    `  locked: ${JSON.stringify(config.locked)}${config.locked.length > 0 ? "  ← organisation" : ""}`,
  );
  lines.push(
    ruleOf === null
      ? "Directory rule: none matches this path"
      : `Directory rule: ${ruleOf.layer} rules[${ruleOf.index}] ${JSON.stringify(ruleOf.paths)} (first match)`,
    "Layers:",
  );
  for (const layer of applied.layers) {
    if (layer.layer === "operator") continue;
    const ignored = layer.ignored.map((i) => `${i.key} (${i.reason})`).join("; ");
    lines.push(
      `  ${layer.layer} (${layer.source}): sets ${layer.keys.join(", ") || "nothing"}${ignored === "" ? "" : `; not applied: ${ignored}`}`,
    );
  }
  lines.push("  operator: the server's environment bounds these further (AUTO_REVIEW_AUTHORS, budgets)");
  return `${lines.join("\n")}\n`;
}
