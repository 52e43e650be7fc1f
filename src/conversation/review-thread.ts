// A review thread in the port's words (each forge maps its own: GitHub's GraphQL threads, GitLab's
// discussions), and the questions Loupe asks of one: did Loupe start it, which finding is it, and
// is a person's reply still waiting for an answer. GitHub's GraphQL names a bot by its slug
// (`loupe`), REST by `loupe[bot]`: Loupe is only ever its bot account — the slug counts only for a
// bot (a person may own the login `loupe`), and `<slug>[bot]` is a login no person can hold.

import { extractFingerprints } from "../review/fingerprint.ts";
import { slugOf } from "./command.ts";

/** Someone a forge names on a thread: a person, or a bot account (an App, an access token's user). */
export interface Actor {
  readonly login: string;
  readonly isBot: boolean;
}

export interface ThreadComment {
  readonly databaseId: number | null;
  readonly body: string;
  readonly author: Actor | null;
}

/** A 👎 on the thread's first comment. */
export interface ThumbsDown {
  readonly createdAt: string | null;
  readonly user: Actor | null;
}

export interface ReviewThread {
  readonly id: string;
  readonly isResolved: boolean;
  readonly isOutdated: boolean;
  readonly path: string;
  /** The anchored line at the current head; null when GitHub can no longer place it (outdated). */
  readonly line: number | null;
  readonly startLine: number | null;
  readonly comments: readonly ThreadComment[];
  /** Who resolved it (GraphQL names Loupe by its slug); absent when the reader did not ask. */
  readonly resolvedBy?: Actor | null;
  /** The 👎 reactions on the first comment (the first 20); absent when the reader did not ask. */
  readonly thumbsDown?: readonly ThumbsDown[];
}

export function isBotComment(comment: ThreadComment, botLogin: string): boolean {
  return comment.author !== null && isLoupeActor(comment.author, botLogin);
}

/** Loupe's bot account: `<slug>[bot]` (GitHub's REST), or the slug of a bot (GitHub's GraphQL). */
export function isLoupeActor(actor: Actor, botLogin: string): boolean {
  const login = actor.login.toLowerCase();
  const bot = botLogin.toLowerCase();
  if (login === bot && (actor.isBot || /\[bot\]$/.test(bot))) return true;
  return actor.isBot && login === slugOf(bot);
}

/** Loupe's finding fingerprint when Loupe started the thread, else null. */
export function loupeFingerprint(thread: ReviewThread, botLogin: string): string | null {
  const first = thread.comments[0];
  if (first === undefined || !isBotComment(first, botLogin)) return null;
  return [...extractFingerprints(first.body)][0] ?? null;
}

/** A comment by someone other than Loupe after Loupe's last word in the thread. */
export function hasUnansweredReply(thread: ReviewThread, botLogin: string): boolean {
  let lastLoupe = -1;
  thread.comments.forEach((comment, index) => {
    if (isBotComment(comment, botLogin)) lastLoupe = index;
  });
  return thread.comments.some((comment, index) => index > lastLoupe && !isBotComment(comment, botLogin));
}
