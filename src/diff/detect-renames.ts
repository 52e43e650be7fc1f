// Rename detection as `git diff -M` does it (diffcore-rename.c), on the added and deleted files
// of a tree diff: exact renames first (same blob), then files whose base names are unique on
// both sides and at least 75 % similar, then, when the matrix is within git's rename limit,
// every remaining pair scored by git's similarity estimate, the best four sources kept per
// destination, and pairs taken from the best down. The order of each step, the tie-breaks and
// the limits are git's, so Loupe pairs the files git pairs.

import type { TreeChange } from "../workspace/tree-diff.ts";
import type { ObjectReader, TreeEntry } from "../workspace/types.ts";
import { type Candidate, createCandidateLoader, isRegular } from "./rename-candidates.ts";
import { compareScores, newRow, offer, type Score } from "./score-matrix.ts";
import { DEFAULT_RENAME_SCORE, MAX_SCORE, similarityPercent, sizesTooFar } from "./similarity.ts";

export interface RenameOptions {
  readonly objects: ObjectReader;
  /** git's `-M<n>`: the least score (of 60,000) for a rename. */
  readonly minScore?: number;
  /** git's diff.renameLimit: inexact detection is skipped when sources × destinations exceed its square. */
  readonly renameLimit?: number;
  /** Blobs larger than this are paired only exactly. */
  readonly maxBlobBytes?: number;
  /** Bytes of blobs read for similarity in one detection; past it, files are paired only exactly. */
  readonly readBudgetBytes?: number;
}

/** git's default diff.renameLimit. */
export const DEFAULT_RENAME_LIMIT = 1000;
export const DEFAULT_SIMILARITY_BLOB_BYTES = 16 * 1024 * 1024;
export const DEFAULT_SIMILARITY_READ_BUDGET = 256 * 1024 * 1024;
/** git's lookup of identical blobs gives up choosing by name after this many candidates. */
const EXACT_CANDIDATES = 100;

export async function detectRenames(
  changes: readonly TreeChange[],
  options: RenameOptions,
): Promise<TreeChange[]> {
  const minScore = options.minScore ?? DEFAULT_RENAME_SCORE;
  const loader = createCandidateLoader(options.objects, {
    maxBlobBytes: options.maxBlobBytes ?? DEFAULT_SIMILARITY_BLOB_BYTES,
    readBudgetBytes: options.readBudgetBytes ?? DEFAULT_SIMILARITY_READ_BUDGET,
  });
  const sources = changes.filter((c) => c.status === "deleted").map((c) => loader.candidate(c.oldEntry!));
  const destinations = changes.filter((c) => c.status === "added").map((c) => loader.candidate(c.newEntry!));
  const pairs = new Map<Candidate, { source: Candidate; score: number }>();
  const pair = (destination: Candidate, source: Candidate, score: number) => {
    source.used = true;
    pairs.set(destination, { source, score });
  };

  if (sources.length > 0 && destinations.length > 0) {
    pairExact(sources, destinations, pair);
    if (minScore < MAX_SCORE) {
      let remaining = sources.filter((s) => !s.used);
      // git: the basename step asks for halfway between the minimum and 100 % (75 % by default).
      const basenameScore = minScore + Math.floor(0.5 * (MAX_SCORE - minScore));
      await pairByBasename(remaining, destinations, pairs, basenameScore, loader, pair);
      remaining = remaining.filter((s) => !s.used);
      const open = destinations.filter((d) => !pairs.has(d));
      const limit = options.renameLimit ?? DEFAULT_RENAME_LIMIT;
      const withinLimit = limit <= 0 || open.length * remaining.length <= limit * limit;
      if (open.length > 0 && remaining.length > 0 && withinLimit) {
        await pairByMatrix(remaining, open, minScore, loader, pair, (d) => pairs.has(d));
      }
    }
  }
  return rebuild(changes, pairs, destinations);
}

type Pair = (destination: Candidate, source: Candidate, score: number) => void;

/** git's find_exact_renames: for each destination, an unused identical source, same name first. */
function pairExact(sources: Candidate[], destinations: Candidate[], pair: Pair): void {
  const byOid = new Map<string, Candidate[]>();
  for (const source of sources) {
    const list = byOid.get(source.entry.oid);
    if (list === undefined) byOid.set(source.entry.oid, [source]);
    else list.push(source);
  }
  for (const destination of destinations) {
    let best: Candidate | undefined;
    let bestScore = -1;
    let left = EXACT_CANDIDATES;
    for (const source of byOid.get(destination.entry.oid) ?? []) {
      // Symlinks and submodules pair only with the same mode; regular files across 644/755.
      const regular = isRegular(source.entry) && isRegular(destination.entry);
      if (!regular && source.entry.mode !== destination.entry.mode) continue;
      if (source.used) continue;
      const score = 1 + (source.name === destination.name ? 1 : 0);
      if (score > bestScore) {
        best = source;
        bestScore = score;
        if (score === 2) break;
      }
      left -= 1;
      if (left === 0) break;
    }
    if (best !== undefined) pair(destination, best, MAX_SCORE);
  }
}

/** git's find_basename_matches: one source and one destination with that base name, similar enough. */
async function pairByBasename(
  sources: Candidate[],
  destinations: Candidate[],
  pairs: ReadonlyMap<Candidate, unknown>,
  minScore: number,
  loader: ReturnType<typeof createCandidateLoader>,
  pair: Pair,
): Promise<void> {
  const unique = (items: Candidate[]) => {
    const map = new Map<string, Candidate | null>();
    for (const item of items) {
      map.set(item.name, map.has(item.name) ? null : item);
    }
    return map;
  };
  const sourceByName = unique(sources);
  const destinationByName = unique(destinations.filter((d) => !pairs.has(d)));
  for (const source of sources) {
    const destination = destinationByName.get(source.name);
    if (destination === undefined || destination === null || sourceByName.get(source.name) === null) continue;
    if (pairs.has(destination)) continue;
    const score = await loader.score(source, destination, minScore);
    if (score >= minScore) pair(destination, source, score);
  }
}

/** git's score matrix: the best four sources of each destination, then pairs from the best down. */
async function pairByMatrix(
  sources: Candidate[],
  destinations: Candidate[],
  minScore: number,
  loader: ReturnType<typeof createCandidateLoader>,
  pair: Pair,
  paired: (destination: Candidate) => boolean,
): Promise<void> {
  await loader.loadSizes([...sources, ...destinations]);
  // Millions of pairs pass through here: sizes and kinds in flat arrays, read once.
  const sizes = Float64Array.from(sources, (s) => (isRegular(s.entry) ? s.size! : -1));
  const matrix: Score[] = [];
  for (let d = 0; d < destinations.length; d += 1) {
    const destination = destinations[d]!;
    const row = newRow();
    const size = isRegular(destination.entry) ? destination.size! : -1;
    for (let s = 0; s < sources.length; s += 1) {
      const source = sources[s]!;
      const other = sizes[s]!;
      let score = 0;
      if (size >= 0 && other >= 0 && !sizesTooFar(other, size, minScore)) {
        score =
          loader.loadedScore(source, destination) ?? (await loader.score(source, destination, minScore));
      }
      offer(row, s, d, score, source.name === destination.name ? 1 : 0);
    }
    matrix.push(...row.slots);
    await loader.breathe();
  }
  // Array.prototype.sort is stable, like the merge sort glibc's qsort uses for git here.
  matrix.sort(compareScores);
  for (const entry of matrix) {
    if (entry.destination < 0 || entry.score < minScore) break;
    const destination = destinations[entry.destination]!;
    const source = sources[entry.source]!;
    if (paired(destination) || source.used) continue;
    pair(destination, source, entry.score);
  }
}

function rebuild(
  changes: readonly TreeChange[],
  pairs: ReadonlyMap<Candidate, { source: Candidate; score: number }>,
  destinations: readonly Candidate[],
): TreeChange[] {
  const renamedFrom = new Map<TreeEntry, { source: TreeEntry; score: number }>();
  const usedSources = new Set<TreeEntry>();
  for (const destination of destinations) {
    const found = pairs.get(destination);
    if (found === undefined) continue;
    renamedFrom.set(destination.entry, { source: found.source.entry, score: found.score });
    usedSources.add(found.source.entry);
  }
  const out: TreeChange[] = [];
  for (const change of changes) {
    if (change.status === "deleted" && usedSources.has(change.oldEntry!)) continue;
    const rename = change.status === "added" ? renamedFrom.get(change.newEntry!) : undefined;
    out.push(
      rename === undefined
        ? change
        : {
            status: "renamed",
            path: change.path,
            previousPath: rename.source.path,
            oldEntry: rename.source,
            newEntry: change.newEntry!,
            similarity: similarityPercent(rename.score),
          },
    );
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
