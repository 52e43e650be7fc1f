// The base's `.gitattributes`, as GitHub reads it to leave files out of diffs and language
// statistics: `linguist-generated` and `linguist-vendored` mark files nobody reviews by hand, and
// `-diff` (or the `binary` macro) marks files whose diff is not wanted. Loupe leaves such files
// out of a review next to its lockfile defaults and names them, with the reason, in the coverage.
// The file is the repository's (untrusted): it is read within a byte and rule bound, and its
// patterns go through the same bounded glob matcher as `.github/loupe.yml`'s; a pattern the
// matcher refuses is skipped. Later lines win over earlier ones for the same attribute, as in git.

import type { TimeSlices } from "../domain/time-slices.ts";
import { checkGlob, compileGlobsInSlices, type GlobSet } from "./glob.ts";

/** Bytes of `.gitattributes` read; a larger file is read no further. */
export const GIT_ATTRIBUTES_BYTES = 64 * 1024;
/** Rules that mark something Loupe cares about; lines past this are ignored. */
const MAX_RULES = 200;

export type AttributeReason = "generated" | "vendored" | "no_diff";

interface Rule {
  readonly glob: string;
  /** For each reason the line sets: true (set) or false (unset). */
  readonly sets: Partial<Record<AttributeReason, boolean>>;
}

const ATTRIBUTE_REASON: Readonly<Record<string, AttributeReason>> = {
  "linguist-generated": "generated",
  "linguist-vendored": "vendored",
};

/** One attribute word of a line: what it says of each reason Loupe reads. */
function readAttribute(word: string, sets: Partial<Record<AttributeReason, boolean>>): void {
  if (word === "binary" || word === "-diff") sets.no_diff = true;
  else if (word === "diff") sets.no_diff = false;
  const unset = word.startsWith("-") || word.startsWith("!");
  const [name, value] = (unset ? word.slice(1) : word).split("=", 2) as [string, string | undefined];
  const reason = ATTRIBUTE_REASON[name];
  if (reason !== undefined) sets[reason] = !unset && value !== "false";
}

/** A gitattributes pattern as a repository-relative glob: no slash means any directory. */
function globOf(pattern: string): string | null {
  // A directory-only pattern never applies to files; a negated one is forbidden in gitattributes.
  if (pattern.endsWith("/") || pattern.startsWith("!")) return null;
  const anchored = pattern.startsWith("/")
    ? pattern.slice(1)
    : pattern.includes("/")
      ? pattern
      : `**/${pattern}`;
  return checkGlob(anchored).ok ? anchored : null;
}

export function parseGitAttributes(text: string): readonly Rule[] {
  const rules: Rule[] = [];
  for (const raw of text.slice(0, GIT_ATTRIBUTES_BYTES).split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith("[attr]")) continue;
    const [pattern, ...words] = line.split(/\s+/);
    const sets: Partial<Record<AttributeReason, boolean>> = {};
    for (const word of words) readAttribute(word, sets);
    const glob = pattern === undefined ? null : globOf(pattern);
    if (glob !== null && Object.keys(sets).length > 0) rules.push({ glob, sets });
    if (rules.length >= MAX_RULES) break;
  }
  return rules;
}

export interface GitAttributes {
  /** Why the repository's attributes leave the path out of a review, or null. */
  reasonFor(path: string, slices: TimeSlices): Promise<AttributeReason | null>;
}

export const NO_ATTRIBUTES: GitAttributes = { reasonFor: async () => null };

export function gitAttributes(text: string | null): GitAttributes {
  if (text === null) return NO_ATTRIBUTES;
  const rules = parseGitAttributes(text);
  const compiled = new Map<string, Promise<GlobSet>>();
  return {
    async reasonFor(path, slices) {
      const state: Partial<Record<AttributeReason, boolean>> = {};
      for (const rule of rules) {
        let set = compiled.get(rule.glob);
        if (set === undefined) {
          set = compileGlobsInSlices([rule.glob], slices);
          compiled.set(rule.glob, set);
        }
        if (await (await set).matchesInSlices(path, slices)) Object.assign(state, rule.sets);
      }
      for (const reason of ["generated", "vendored", "no_diff"] as const) if (state[reason]) return reason;
      return null;
    },
  };
}
