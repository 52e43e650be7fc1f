// The ledger read back from Loupe's own review threads: each thread Loupe started whose first
// comment carries an identity marker is one finding, and its status comes from what happened in
// the thread. Only Loupe's own comments are read for markers; a person dismisses a finding only
// when GitHub says they can write to the repository (the caller checks, permission.ts), by one of:
// a 👎 on the finding, resolving its thread while its code is unchanged (GitHub has not marked it
// outdated), or a reply the reply loop judged a dismissal (Loupe's reply then carries
// `<!-- loupe:status=dismissed by=… -->` and Loupe resolves the thread). Each is read from GitHub's
// state at every review, so removing the 👎 or unresolving the thread undoes it.

import { extractIdentities } from "../review/finding-identity.ts";
import { extractFingerprints } from "../review/fingerprint.ts";
import type { Dismissal, LedgerEntry, LedgerStatus } from "../review/ledger.ts";
import { type Actor, isBotComment, isLoupeActor, type ReviewThread } from "./review-thread.ts";

/** Enough for any pull request's findings; a guard against a thread list without end. */
export const MAX_LEDGER_ENTRIES = 500;
const MAX_TITLE = 200;

const STATUS =
  /<!-- loupe:status=(still_valid|fixed|withdrawn|dismissed)(?: by=([A-Za-z0-9][A-Za-z0-9._-]{0,254}))? -->/g;

/** The people whose word could dismiss a finding: who must be checked for write access. */
export function dismissalCandidates(threads: readonly ReviewThread[], botLogin: string): Set<string> {
  const logins = new Set<string>();
  for (const thread of threads) {
    if (!startedByLoupe(thread, botLogin)) continue;
    const resolver = thread.resolvedBy;
    if (isPerson(resolver, botLogin)) logins.add(resolver.login);
    for (const reaction of thread.thumbsDown ?? []) {
      if (isPerson(reaction.user, botLogin)) logins.add(reaction.user.login);
    }
  }
  return logins;
}

export function readLedger(input: {
  readonly threads: readonly ReviewThread[];
  readonly botLogin: string;
  /** Lower-cased logins GitHub says can write to the repository. */
  readonly writers: ReadonlySet<string>;
}): LedgerEntry[] {
  const entries: LedgerEntry[] = [];
  for (const thread of input.threads) {
    if (entries.length >= MAX_LEDGER_ENTRIES) break;
    if (!startedByLoupe(thread, input.botLogin)) continue;
    const first = thread.comments[0]!;
    const identity = extractIdentities(first.body, 1)[0];
    if (identity === undefined) continue;
    const { status, dismissal } = statusOf(thread, input);
    entries.push({
      identity,
      fingerprint: [...extractFingerprints(first.body)][0] ?? null,
      status,
      title: titleOf(first.body),
      path: thread.path,
      line: thread.line,
      dismissal,
    });
  }
  return entries;
}

function statusOf(
  thread: ReviewThread,
  input: Parameters<typeof readLedger>[0],
): { status: LedgerStatus; dismissal: Dismissal | null } {
  const writer = (actor: Actor | null | undefined) =>
    isPerson(actor, input.botLogin) && input.writers.has(actor.login.toLowerCase());
  const reaction = (thread.thumbsDown ?? []).find((r) => writer(r.user));
  if (reaction !== undefined) {
    return {
      status: "dismissed",
      dismissal: { by: reaction.user!.login, at: reaction.createdAt, how: "reaction" },
    };
  }
  const resolver = thread.isResolved ? thread.resolvedBy : undefined;
  if (!thread.isOutdated && writer(resolver)) {
    return { status: "dismissed", dismissal: { by: resolver!.login, at: null, how: "resolved" } };
  }
  const said = lastStatus(thread, input.botLogin);
  // Loupe resolves the thread when it records a reply's dismissal; a writer unresolving it undoes it.
  if (said?.status === "dismissed" && said.by !== undefined && thread.isResolved) {
    return { status: "dismissed", dismissal: { by: said.by, at: null, how: "reply" } };
  }
  if (said?.status === "fixed" || said?.status === "withdrawn")
    return { status: said.status, dismissal: null };
  // Still valid when Loupe said so; a thread resolved after that (its code changed) reads as below.
  if (said?.status === "still_valid" && !thread.isResolved) return { status: "open", dismissal: null };
  // Loupe resolves a thread whose code changed and whose finding it did not raise again; a writer
  // resolving it after its code changed (outdated) is taken the same way. Someone who cannot
  // write resolving it changes nothing.
  const by = thread.resolvedBy;
  const fixed =
    thread.isResolved && (by === undefined || by === null || isLoupeActor(by, input.botLogin) || writer(by));
  return { status: fixed ? "fixed" : "open", dismissal: null };
}

/** The newest status in Loupe's own replies in the thread. */
function lastStatus(thread: ReviewThread, botLogin: string): { status: string; by?: string } | null {
  let last: { status: string; by?: string } | null = null;
  for (const comment of thread.comments.slice(1)) {
    if (!isBotComment(comment, botLogin)) continue;
    for (const match of comment.body.matchAll(STATUS)) {
      last = match[2] === undefined ? { status: match[1]! } : { status: match[1]!, by: match[2] };
    }
  }
  return last;
}

function startedByLoupe(thread: ReviewThread, botLogin: string): boolean {
  const first = thread.comments[0];
  return first !== undefined && isBotComment(first, botLogin);
}

/** Anyone but Loupe's bot account: a user whose login is Loupe's slug is a person like any other. */
function isPerson(actor: Actor | null | undefined, botLogin: string): actor is Actor {
  return actor !== undefined && actor !== null && !isLoupeActor(actor, botLogin);
}

/** The title line of Loupe's inline comment ("🟠 **High** · title"), its escapes removed. */
function titleOf(body: string): string {
  const line = body.split("\n", 1)[0] ?? "";
  const title = line.includes(" · ") ? line.slice(line.indexOf(" · ") + 3) : line;
  return title.replace(/\\(.)/g, "$1").slice(0, MAX_TITLE);
}
