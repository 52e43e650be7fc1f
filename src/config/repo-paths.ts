// Which changed files a review covers: `paths.include` and `paths.exclude` of the repository's
// configuration, and any other list of repository globs, matched by one automaton per list
// (glob.ts: time linear in the path). Patterns that break the `paths` rules are ignored, so a glob
// from any repository file is bounded like one from loupe.yml.

import * as v from "valibot";
import { compileGlobs } from "./glob.ts";
import { Glob, LIMITS, type RepoConfig } from "./repo-config-schema.ts";

const matchers = new WeakMap<RepoConfig["paths"], (path: string) => boolean>();

/** Whether a path matches any of these repository globs, with the same matching as `paths`. */
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
