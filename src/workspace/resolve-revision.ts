// Resolves a user-supplied revision (branch, tag, HEAD, full or abbreviated SHA, with optional
// `~N` / `^N` suffixes) to a commit id in a local object store, peeling annotated tags.
// isomorphic-git has no rev-parse, so this covers the forms people type on a command line. A ref
// that names an object directly is read by direct-ref.ts; symbolic refs and abbreviated ids are
// looked up with isomorphic-git (files and pack indexes only); objects are
// read with Loupe's object database, which never loads a whole pack to read one commit.

import fs from "node:fs";
import { LoupeError } from "../domain/errors.ts";
import { resolveDirectRef } from "./direct-ref.ts";
import { parseCommitHeader, tagTarget } from "./objects/commit-object.ts";
import type { ObjectDatabase } from "./objects/object-database.ts";

export interface RevisionStore {
  readonly gitdir: string;
  readonly cache: object;
  readonly database: ObjectDatabase;
  /** For a linked worktree: what its own HEAD points to (a ref name or an id). */
  readonly headOverride?: string;
}

const MAX_REVISION_LENGTH = 256;
const MAX_PEEL = 16;

function unknown(revision: string, why: string): LoupeError {
  const shown = JSON.stringify(revision.slice(0, MAX_REVISION_LENGTH));
  return new LoupeError("git_commit_unreachable", `unknown revision ${shown}: ${why}`);
}

/** Returns the 40-hex id of the commit `revision` names, or throws `git_commit_unreachable`. */
export async function resolveRevision(store: RevisionStore, revision: string): Promise<string> {
  if (revision.length === 0 || revision.length > MAX_REVISION_LENGTH || /[\s\0:]/.test(revision)) {
    throw unknown(revision, "not a valid revision");
  }
  const suffixStart = revision.search(/[~^]/);
  const name = suffixStart === -1 ? revision : revision.slice(0, suffixStart);
  const suffixes = suffixStart === -1 ? "" : revision.slice(suffixStart);
  if (!/^(?:[~^]\d*)*$/.test(suffixes)) throw unknown(revision, "unsupported revision syntax");

  let oid = await peelToCommit(store, await resolveName(store, name, revision), revision);
  for (const [, op, digits] of suffixes.matchAll(/([~^])(\d*)/g)) {
    const count = digits === "" ? 1 : Number(digits);
    if (op === "~") {
      for (let step = 0; step < count; step += 1) oid = await parentOf(store, oid, 1, revision);
    } else if (count > 0) {
      oid = await parentOf(store, oid, count, revision);
    }
  }
  return oid;
}

async function resolveName(store: RevisionStore, name: string, revision: string): Promise<string> {
  if (name === "") throw unknown(revision, "no revision name");
  const ref = name === "HEAD" && store.headOverride !== undefined ? store.headOverride : name;
  if (/^[0-9a-f]{40}$/.test(ref)) return ref;
  const direct = await resolveDirectRef(store.gitdir, ref);
  if (direct !== undefined) return direct;
  // Loaded only for what direct-ref.ts does not read (a symbolic ref, an abbreviated id): most
  // revisions never need it, and it is a large module to load at a command's start.
  const { default: git } = await import("isomorphic-git");
  try {
    return await git.resolveRef({ fs, gitdir: store.gitdir, ref });
  } catch {
    // Not a ref: it may be an abbreviated object id.
  }
  if (/^[0-9a-f]{4,39}$/i.test(ref)) {
    try {
      return await git.expandOid({ fs, gitdir: store.gitdir, oid: ref.toLowerCase(), cache: store.cache });
    } catch (error) {
      const ambiguous = error instanceof Error && error.name === "AmbiguousError";
      throw unknown(revision, ambiguous ? "the abbreviated id is ambiguous" : "no such ref or object");
    }
  }
  throw unknown(revision, "no such ref or object");
}

async function peelToCommit(store: RevisionStore, start: string, revision: string): Promise<string> {
  let oid = start;
  for (let depth = 0; depth < MAX_PEEL; depth += 1) {
    const object = await readObject(store, oid, revision);
    if (object.type === "commit") return oid;
    if (object.type !== "tag") throw unknown(revision, `it names a ${object.type}, not a commit`);
    oid = tagTarget(object.bytes, oid);
  }
  throw unknown(revision, "too many nested tags");
}

async function readObject(store: RevisionStore, oid: string, revision: string) {
  let object: Awaited<ReturnType<ObjectDatabase["readObject"]>>;
  try {
    object = await store.database.readObject(oid);
  } catch {
    object = undefined;
  }
  if (object === undefined) throw unknown(revision, "the object is not in the repository");
  return object;
}

async function parentOf(store: RevisionStore, oid: string, index: number, revision: string): Promise<string> {
  const parent = parseCommitHeader((await readObject(store, oid, revision)).bytes, oid).parents[index - 1];
  if (parent === undefined) throw unknown(revision, "the commit has no such parent");
  return parent;
}
