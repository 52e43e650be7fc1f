// The merge-base of two commits in one object store (what GitHub's three-dot PR diff starts
// from), found the way `git merge-base` finds it (commit.c, paint_down_to_common): walk back
// from both commits newest first, marking what each reaches; a commit both reach is a common
// ancestor, and everything behind it is stale, so the walk stops as soon as only stale commits
// remain instead of visiting all of history. Criss-cross histories can have several best common
// ancestors; like `git merge-base` without `--all`, one is picked, deterministically (the
// smallest id). Commits missing from the store (the edge of a shallow fetch) end their branch.

import { parseCommitHeader } from "./objects/commit-object.ts";
import type { ObjectDatabase } from "./objects/object-database.ts";

const FROM_BASE = 1;
const FROM_HEAD = 2;
const STALE = 4;
const RESULT = 8;

interface Queued {
  readonly oid: string;
  readonly time: number;
}

/** A max-heap by commit time (ties: insertion order does not matter for correctness). */
class NewestFirst {
  readonly #items: Queued[] = [];
  get size(): number {
    return this.#items.length;
  }
  push(item: Queued): void {
    const items = this.#items;
    items.push(item);
    for (let at = items.length - 1; at > 0; ) {
      const up = (at - 1) >> 1;
      if (items[up]!.time >= items[at]!.time) break;
      [items[up], items[at]] = [items[at]!, items[up]!];
      at = up;
    }
  }
  pop(): Queued {
    const items = this.#items;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      for (let at = 0; ; ) {
        const left = 2 * at + 1;
        const right = left + 1;
        let newest = at;
        if (left < items.length && items[left]!.time > items[newest]!.time) newest = left;
        if (right < items.length && items[right]!.time > items[newest]!.time) newest = right;
        if (newest === at) break;
        [items[newest], items[at]] = [items[at]!, items[newest]!];
        at = newest;
      }
    }
    return top;
  }
}

/** What the walk knows of one commit: its header, how it was reached, and its queued entries. */
interface WalkedCommit {
  readonly parents: readonly string[];
  readonly time: number;
  flags: number;
  /** How many entries of the queue are this commit's. */
  queued: number;
}

export async function findMergeBase(
  store: { readonly database: ObjectDatabase },
  base: string,
  head: string,
): Promise<string | undefined> {
  if (base === head) return base;
  // One record per commit, read once: the walk asks for a commit's flags, queue count and parents
  // several times a step (20,548 commits between two rails releases).
  const commits = new Map<string, WalkedCommit | null>();
  const commitOf = async (oid: string): Promise<WalkedCommit | null> => {
    let known = commits.get(oid);
    if (known === undefined) {
      const object = await store.database.readObject(oid);
      known =
        object?.type === "commit" ? { ...parseCommitHeader(object.bytes, oid), flags: 0, queued: 0 } : null;
      commits.set(oid, known);
    }
    return known;
  };

  const queue = new NewestFirst();
  // How many of all queued entries are not stale: git's queue_has_nonstale, kept as a count. The
  // walk ends when every queued commit is stale.
  let live = 0;
  const enqueue = (oid: string, commit: WalkedCommit, add: number) => {
    if ((add & STALE) !== 0 && (commit.flags & STALE) === 0) live -= commit.queued;
    commit.flags |= add;
    queue.push({ oid, time: commit.time });
    commit.queued += 1;
    if ((commit.flags & STALE) === 0) live += 1;
  };
  for (const [oid, side] of [
    [base, FROM_BASE],
    [head, FROM_HEAD],
  ] as const) {
    const commit = await commitOf(oid);
    if (commit !== null) enqueue(oid, commit, side);
  }

  const results: string[] = [];
  while (live > 0) {
    const { oid } = queue.pop();
    const commit = commits.get(oid)!;
    commit.queued -= 1;
    if ((commit.flags & STALE) === 0) live -= 1;
    let reach = commit.flags & (FROM_BASE | FROM_HEAD | STALE);
    if (reach === (FROM_BASE | FROM_HEAD)) {
      if ((commit.flags & RESULT) === 0) {
        commit.flags |= RESULT;
        results.push(oid);
      }
      reach |= STALE;
    }
    for (const parentOid of commit.parents) {
      const parent = await commitOf(parentOid);
      if (parent === null) continue; // beyond a shallow edge
      if ((parent.flags & reach) === reach) continue;
      enqueue(parentOid, parent, reach);
    }
  }
  const best = await removeRedundant(results, commitOf);
  return best.sort()[0];
}

/** Drops every common ancestor that another one reaches (git's remove_redundant). */
async function removeRedundant(
  results: readonly string[],
  header: (oid: string) => Promise<{ parents: readonly string[] } | null>,
): Promise<string[]> {
  if (results.length < 2) return [...results];
  const reachable = new Set<string>();
  for (const start of results) {
    const pending = [...((await header(start))?.parents ?? [])];
    const seen = new Set<string>();
    while (pending.length > 0) {
      const oid = pending.pop()!;
      if (seen.has(oid)) continue;
      seen.add(oid);
      reachable.add(oid);
      pending.push(...((await header(oid))?.parents ?? []));
    }
  }
  return results.filter((oid) => !reachable.has(oid));
}
