// Reads `.github/loupe.yml` into the settings the app needs, with every error as {path, message}.
// Unknown keys are errors too, so a typo never silently means "default".

import { parse } from "yaml";
import type { Severity } from "../llm/types.ts";
import { isAtLeast, SEVERITIES } from "../review/severity.ts";
import type { RepoSettingsResult } from "./review-ports.ts";

const KEYS = new Set([
  "enabled",
  "review_drafts",
  "ignore_bots",
  "max_files",
  "min_severity",
  "fail_on",
  "instructions",
  "paths",
]);

export function settingsFromYaml(text: string | null): RepoSettingsResult {
  const errors: { path: string; message: string }[] = [];
  let raw: Record<string, unknown> = {};
  if (text !== null && text.trim() !== "") {
    try {
      const value: unknown = parse(text);
      if (value !== null && (typeof value !== "object" || Array.isArray(value)))
        errors.push({ path: "", message: "must be a mapping" });
      else raw = (value ?? {}) as Record<string, unknown>;
    } catch {
      return { ok: false, errors: [{ path: "", message: "is not valid YAML" }] };
    }
  }
  for (const key of Object.keys(raw))
    if (!KEYS.has(key)) errors.push({ path: key, message: "is not a known setting" });
  const bool = (key: string, fallback: boolean) => {
    const v = raw[key];
    if (v === undefined) return fallback;
    if (typeof v !== "boolean") errors.push({ path: key, message: "must be true or false" });
    return v === true;
  };
  const severity = (key: string, fallback: Severity | null) => {
    const v = raw[key];
    if (v === undefined) return fallback;
    if (v === null && key === "fail_on") return null;
    if (!SEVERITIES.includes(v as Severity))
      errors.push({ path: key, message: `must be one of ${SEVERITIES.join(", ")}` });
    return v as Severity;
  };
  const enabled = bool("enabled", true);
  const reviewDrafts = bool("review_drafts", false);
  const ignoreBots = bool("ignore_bots", true);
  const maxFiles = raw.max_files ?? 100;
  if (!Number.isSafeInteger(maxFiles) || (maxFiles as number) < 1 || (maxFiles as number) > 300)
    errors.push({ path: "max_files", message: "must be an integer from 1 to 300" });
  const minSeverity = severity("min_severity", "low") ?? "low";
  const failOn = severity("fail_on", null);
  const instructions = raw.instructions ?? null;
  if (instructions !== null && typeof instructions !== "string")
    errors.push({ path: "instructions", message: "must be text" });
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    raw,
    settings: {
      enabled,
      reviewDrafts,
      ignoreBots,
      maxFiles: maxFiles as number,
      minSeverity,
      instructions: instructions as string | null,
      failsOn: (s: Severity) => failOn !== null && isAtLeast(s, failOn),
      includes: () => true,
    },
  };
}
