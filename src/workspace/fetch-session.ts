// One fetch session's git work: a commit fetched at depth 1 (sending the head as a `have` so the
// server sends only what is missing), the history deepened until the merge-base appears, and each
// pack isomorphic-git receives indexed and installed by Loupe's own object database.

import fs from "node:fs";
import git from "isomorphic-git";
import { LoupeError } from "../domain/errors.ts";
import { isUnreachableFailure, unreachable } from "./fetch-errors.ts";
import type { createGitHttpClient } from "./git-http-client.ts";
import type { IncomingPacks } from "./incoming-packs.ts";
import { findMergeBase } from "./merge-base.ts";
import type { ObjectDatabase } from "./objects/object-database.ts";

const DEFAULT_MAX_DEEPEN = 1024;

export interface Session {
  readonly gitdir: string;
  readonly cache: object;
  readonly database: ObjectDatabase;
  readonly http: ReturnType<typeof createGitHttpClient>;
  /** Packs the server sent, streamed to disk; installed (indexed) after each git.fetch. */
  readonly packs: IncomingPacks;
  /** What the HTTP client adds to the next upload-pack request's wants (extra-wants.ts). */
  readonly extraWants: string[];
}

// isomorphic-git takes its `have`s from the local ref named by `ref` and its `want` from
// `remoteRef`: pointing HAVE_REF at the head makes the merge-base fetch (and each deepening)
// send only what the head lacks, instead of a second copy of the whole tree (see thin-pack.ts).
const HAVE_REF = "refs/loupe/have";

/**
 * Fetches `sha` at depth 1. With `alsoWant` (the review's other commit), the first fetch into an
 * empty store asks for both in one request; if the server refuses either, `sha` is fetched alone,
 * so that a refusal names the commit it is about.
 */
export async function fetchCommit(
  session: Session,
  sha: string,
  what: string,
  alsoWant?: string,
): Promise<void> {
  if (await hasCommit(session, sha)) return;
  const args = { ...(await wantWithHaves(session, sha)), singleBranch: true, depth: 1 };
  if (alsoWant !== undefined && alsoWant !== sha && !(await hasRef(session))) {
    try {
      session.extraWants.push(alsoWant);
      await fetchAndInstall(session, what, args);
    } catch (error) {
      if (!isUnreachableFailure(error)) throw error;
    } finally {
      session.extraWants.length = 0;
    }
  }
  // A server that refuses one want sends nothing for either (or an error): fetch `sha` alone.
  if (!(await hasCommit(session, sha))) await fetchAndInstall(session, what, args);
  if (!(await hasCommit(session, sha))) throw unreachable(what);
  if (!(await hasRef(session))) await git.writeRef({ fs, gitdir: session.gitdir, ref: HAVE_REF, value: sha });
}

export async function wantWithHaves(
  session: Session,
  sha: string,
): Promise<{ ref: string; remoteRef?: string }> {
  return (await hasRef(session)) ? { ref: HAVE_REF, remoteRef: sha } : { ref: sha };
}

async function hasRef(session: Session): Promise<boolean> {
  try {
    await git.resolveRef({ fs, gitdir: session.gitdir, ref: HAVE_REF });
    return true;
  } catch {
    return false;
  }
}

// Fetch both at depth 1, then deepen both sides (relative) until a common
// ancestor appears. Steps double, so a merge-base d commits back costs about 2·log2(d) fetches.
export async function deepenToMergeBase(
  session: Session,
  head: string,
  base: string,
  maxDeepen?: number,
): Promise<string> {
  await fetchCommit(session, base, `the base commit ${base}`);
  const limit = maxDeepen ?? DEFAULT_MAX_DEEPEN;
  let depth = 1;
  let step = 1;
  while (true) {
    const found = await findMergeBase(session, base, head);
    if (found !== undefined) return found;
    if (depth >= limit) {
      throw new LoupeError(
        "git_commit_unreachable",
        `no merge-base of ${base} and ${head} within ${limit} commits of history (they may share no history)`,
      );
    }
    step = Math.min(step, limit - depth);
    for (const ref of [head, base]) {
      const want = await wantWithHaves(session, ref);
      await fetchAndInstall(session, `history of ${ref}`, {
        ...want,
        singleBranch: true,
        depth: step,
        relative: true,
      });
    }
    depth += step;
    step *= 2;
  }
}

/** One isomorphic-git fetch, then the pack it brought indexed and installed by Loupe. */
export async function fetchAndInstall(
  session: Session,
  what: string,
  args: { ref: string; remoteRef?: string; singleBranch: boolean; depth: number; relative?: boolean },
): Promise<Awaited<ReturnType<typeof git.fetch>>> {
  const result = await git.fetch({ ...fetchArgs(session), ...args });
  await session.packs.install(what);
  return result;
}

function fetchArgs(session: Session) {
  return {
    fs,
    http: session.http,
    gitdir: session.gitdir,
    cache: session.cache,
    remote: "origin",
    tags: false,
  };
}

// Loupe's object database, not isomorphic-git's reader: that one loads a whole pack into memory
// (and keeps it in the session cache) to read a single commit.
export async function hasCommit(session: Session, sha: string): Promise<boolean> {
  try {
    return (await session.database.readObject(sha))?.type === "commit";
  } catch {
    return false;
  }
}
