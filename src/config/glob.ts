// Path globs for `.github/loupe.yml` with a bounded cost. A backtracking matcher (picomatch
// compiles to a RegExp) can take minutes on one path for a pattern like `**/*a*a*a*a*a*b`; here a
// whole list of patterns is compiled once into one automaton (glob-compile.ts) that reads each
// character of a path once for all of them, keeping the set of states alive (glob-nfa.ts) and
// remembering the sets it meets (glob-automaton.ts). Brace alternatives are part of the automaton,
// not expanded into copies of the pattern, so 64 alternatives cost what one does. Patterns are
// refused up front when they exceed the limits below. A server compiles and matches in slices of
// the event loop (`compileGlobsInSlices`); the first long name against a list at the limits takes
// tens of milliseconds, and no turn of the loop should.
//
// Syntax (picomatch's with `dot: true`, minus what it cannot bound): `*` (any characters but `/`,
// dotfiles included), `**` as a whole segment (any number of segments), `?`, `[abc]`, `[a-z]`,
// `[!a]`/`[^a]`, and `{a,b}` alternatives (not nested). Extglobs and `!` negation are refused.
// Patterns and paths are read by code points.

import type { TimeSlices } from "../domain/time-slices.ts";
import { GlobAutomaton } from "./glob-automaton.ts";
import { compileGraphs, compileInSlices } from "./glob-compile.ts";
import { braceError, type GlobGraph, globGraph } from "./glob-graph.ts";
import { GLOB_LIMITS } from "./glob-limits.ts";
import type { GlobStats } from "./glob-nfa.ts";

export { GLOB_LIMITS } from "./glob-limits.ts";
export type { GlobStats } from "./glob-nfa.ts";

export type GlobCheck = { readonly ok: true } | { readonly ok: false; readonly message: string };

/** Whether the pattern is within the limits and its syntax, or why not. */
export function checkGlob(pattern: string): GlobCheck {
  if (pattern.length > GLOB_LIMITS.length)
    return { ok: false, message: `must be at most ${GLOB_LIMITS.length} characters` };
  if (pattern.startsWith("!"))
    return { ok: false, message: "negation (!) is not supported: use paths.exclude" };
  if (/[@!+*?]\(/.test(pattern))
    return { ok: false, message: "extglobs like @(a|b) are not supported: use {a,b}" };
  const wildcards = (pattern.match(/[*?[]/g) ?? []).length;
  if (wildcards > GLOB_LIMITS.wildcards)
    return { ok: false, message: `must have at most ${GLOB_LIMITS.wildcards} wildcards (*, ?, [)` };
  const braces = braceError(pattern);
  return braces === null ? { ok: true } : { ok: false, message: braces };
}

function checkedGraph(pattern: string): GlobGraph {
  const check = checkGlob(pattern);
  const graph = check.ok ? globGraph(pattern) : check.message;
  if (typeof graph === "string") throw new TypeError(`invalid glob ${JSON.stringify(pattern)}: ${graph}`);
  return graph;
}

/** A compiled list of patterns: a path matches when any of them does. */
export interface GlobSet {
  matches(path: string, stats?: GlobStats): boolean;
  matchesInSlices(path: string, slices: TimeSlices, stats?: GlobStats): Promise<boolean>;
}

function globSet(automaton: GlobAutomaton): GlobSet {
  return {
    matches: (path, stats = { steps: 0 }) => automaton.matches(path, stats),
    matchesInSlices: (path, slices, stats = { steps: 0 }) => automaton.matchesInSlices(path, slices, stats),
  };
}

/** A matcher for already checked patterns (any one matching is a match). */
export function compileGlobs(patterns: readonly string[]): (path: string, stats?: GlobStats) => boolean {
  return globSet(new GlobAutomaton(compileGraphs([...new Set(patterns)].map(checkedGraph)))).matches;
}

/** `compileGlobs`, compiling one pattern at a time between turns of the event loop. */
export async function compileGlobsInSlices(
  patterns: readonly string[],
  slices: TimeSlices,
): Promise<GlobSet> {
  return globSet(new GlobAutomaton(await compileInSlices([...new Set(patterns)], checkedGraph, slices)));
}
