// AGENTS.md and CLAUDE.md files below the root, in the directories of the changed files: tools
// that read them take the nearest one for a file, so a package's own guidance reaches the model
// for the changes inside that package. The search walks down from the root a level at a time and
// lists only directories its parent's listing shows on the default branch (a directory the pull
// request adds has nothing to find, and a name the pull request chose is never requested unless
// the default branch has it), shallowest first, then those holding the most changed files, at
// most 24 listings and 8 levels deep.

import {
  type Candidate,
  GUIDANCE_LIMITS,
  type GuidanceDirEntry,
  type GuidanceKind,
  type GuidanceSkip,
} from "./types.ts";

const AGENT_FILES: readonly [string, GuidanceKind][] = [
  ["AGENTS.md", "agents"],
  ["CLAUDE.md", "claude"],
];

/**
 * The AGENTS.md and CLAUDE.md files a directory's listing shows: at the root ("") for every
 * changed file, below it for the changed files under their directory.
 */
export function agentFilesIn(dir: string, entries: readonly GuidanceDirEntry[]): Candidate[] {
  return AGENT_FILES.filter(([name]) => entries.some((e) => e.name === name && e.type === "file")).map(
    ([name, kind]) => (dir === "" ? { path: name, kind } : { path: `${dir}/${name}`, kind, directory: dir }),
  );
}

interface Listed {
  readonly dir: string;
  readonly entries: readonly GuidanceDirEntry[];
  /** The changed files under this directory. */
  readonly files: readonly string[];
}

export async function findNestedGuidance(
  list: (dir: string) => Promise<readonly GuidanceDirEntry[]>,
  root: readonly GuidanceDirEntry[],
  changedFiles: readonly string[],
  skipped: GuidanceSkip[],
): Promise<Candidate[]> {
  const candidates: Candidate[] = [];
  let listings = GUIDANCE_LIMITS.nestedDirectories;
  let notListed = 0;
  let level: Listed[] = [{ dir: "", entries: root, files: changedFiles }];
  for (let depth = 1; depth <= GUIDANCE_LIMITS.nestedDepth && level.length > 0; depth++) {
    const children = level
      .flatMap(subdirectories)
      .sort((a, b) => b.files.length - a.files.length || (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
    notListed += Math.max(0, children.length - listings);
    const next: Listed[] = [];
    for (const child of children.slice(0, listings)) {
      const entries = await list(child.dir);
      candidates.push(...agentFilesIn(child.dir, entries));
      next.push({ ...child, entries });
    }
    listings -= Math.min(listings, children.length);
    level = next;
  }
  if (notListed > 0) {
    skipped.push({
      path: "(nested AGENTS.md and CLAUDE.md)",
      reason: `${notListed} more director${notListed === 1 ? "y" : "ies"} of changed files not searched (at most ${GUIDANCE_LIMITS.nestedDirectories}, shallowest first)`,
    });
  }
  return candidates;
}

/** The directories below `parent` that hold changed files and exist on the default branch. */
function subdirectories(parent: Listed): { dir: string; files: string[] }[] {
  const offset = parent.dir === "" ? 0 : parent.dir.length + 1;
  const groups = new Map<string, string[]>();
  for (const file of parent.files) {
    const slash = file.indexOf("/", offset);
    if (slash === -1) continue;
    const name = file.slice(offset, slash);
    const group = groups.get(name);
    if (group === undefined) groups.set(name, [file]);
    else group.push(file);
  }
  const dirs = new Set(parent.entries.filter((e) => e.type === "dir").map((e) => e.name));
  return [...groups]
    .filter(([name]) => dirs.has(name))
    .map(([name, files]) => ({ dir: parent.dir === "" ? name : `${parent.dir}/${name}`, files }));
}
