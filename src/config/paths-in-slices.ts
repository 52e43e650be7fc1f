// `isPathIncluded` for the server: a repository's `paths` lists are compiled, and each path is
// matched, in slices of the event loop (glob.ts), so that a configuration at the glob limits and
// a kilobyte-long file name cannot hold every installation's webhooks while a review filters its
// files. The compiled lists are kept with the configuration, as isPathIncluded keeps its own.

import type { TimeSlices } from "../domain/time-slices.ts";
import { compileGlobsInSlices, type GlobSet } from "./glob.ts";
import type { RepoConfig } from "./repo-config-schema.ts";
import { validGlobs } from "./repo-paths.ts";

interface PathLists {
  readonly include: GlobSet | null;
  readonly exclude: GlobSet | null;
}

const compiled = new WeakMap<RepoConfig["paths"], Promise<PathLists>>();

async function compileList(patterns: readonly string[], slices: TimeSlices): Promise<GlobSet | null> {
  const valid = validGlobs(patterns);
  return valid.length > 0 ? compileGlobsInSlices(valid, slices) : null;
}

/** Included when some include pattern matches and no exclude pattern does. */
export async function isPathIncludedInSlices(
  config: RepoConfig,
  path: string,
  slices: TimeSlices,
): Promise<boolean> {
  let lists = compiled.get(config.paths);
  if (lists === undefined) {
    const { include, exclude } = config.paths;
    lists = (async () => ({
      include: await compileList(include, slices),
      exclude: await compileList(exclude, slices),
    }))();
    compiled.set(config.paths, lists);
  }
  const { include, exclude } = await lists;
  if (include === null || !(await include.matchesInSlices(path, slices))) return false;
  return exclude === null || !(await exclude.matchesInSlices(path, slices));
}
