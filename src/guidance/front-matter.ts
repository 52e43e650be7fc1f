// The front matter of a `.github/instructions/*.instructions.md` file: `applyTo` globs, as a
// comma-separated string (the documented form) or a YAML list. Bounded: a front matter over
// 4 KiB, or YAML that does not parse to a mapping, is reported rather than guessed.

import { parse } from "yaml";

const MAX_FRONT_MATTER = 4 * 1024;
const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export type FrontMatter =
  | { readonly ok: true; readonly body: string; readonly applyTo: readonly string[] | null }
  | { readonly ok: false; readonly reason: string };

export function readFrontMatter(text: string): FrontMatter {
  const match = FRONT_MATTER.exec(text.slice(0, MAX_FRONT_MATTER + 16));
  if (match === null) {
    return text.startsWith("---") && text.length > MAX_FRONT_MATTER
      ? { ok: false, reason: "its front matter is larger than 4 KiB" }
      : { ok: true, body: text, applyTo: null };
  }
  let data: unknown;
  try {
    data = parse(match[1] ?? "", { maxAliasCount: 0, uniqueKeys: true });
  } catch {
    return { ok: false, reason: "its front matter is not valid YAML" };
  }
  const body = text.slice(match[0].length);
  if (data === null || data === undefined) return { ok: true, body, applyTo: null };
  if (typeof data !== "object" || Array.isArray(data)) {
    return { ok: false, reason: "its front matter is not a mapping" };
  }
  const raw = (data as Record<string, unknown>).applyTo;
  if (raw === undefined || raw === null) return { ok: true, body, applyTo: null };
  const items = typeof raw === "string" ? raw.split(",") : Array.isArray(raw) ? raw : null;
  if (items === null || !items.every((item) => typeof item === "string")) {
    return { ok: false, reason: "its applyTo is not a string or a list of strings" };
  }
  const globs = (items as string[]).map((glob) => glob.trim()).filter((glob) => glob !== "");
  return { ok: true, body, applyTo: globs };
}
