// A merge request's notes and discussions as GitLab lists them, mapped into the port's raw records
// and threads. Loupe's own texts are those of the token's user: on GitLab that user is Loupe's
// identity (a bot user or a project access token's), so its texts are marked as a bot's.

import type { HostText } from "../../conversation/review-state.ts";
import type { ReviewThread, ThumbsDown } from "../../conversation/review-thread.ts";
import type { HostRecords } from "../../host/pull-request-host.ts";
import type { GitLabApi } from "./gitlab-api.ts";
import { BOT_USERNAME } from "./merge-request.ts";

export interface NoteAnswer {
  readonly id: number;
  readonly body: string;
  readonly type: string | null;
  readonly system: boolean;
  readonly author: { readonly username: string } | null;
  readonly created_at: string;
  readonly resolved?: boolean;
  readonly resolved_by?: { readonly username: string } | null;
  readonly position?: {
    readonly new_path: string;
    readonly new_line: number | null;
    readonly head_sha: string;
  } | null;
}

/** Notes by people and bots (never GitLab's system notes), oldest first. */
export async function listNotes(api: GitLabApi, mr: string): Promise<NoteAnswer[]> {
  const { items } = await api.pages<NoteAnswer>(`${mr}/notes`, { sort: "asc", order_by: "created_at" });
  return items.filter((n) => !n.system);
}

/** Diff notes are the review's comments; every other note is a review body (or Loupe's summary). */
export async function readRecords(api: GitLabApi, mr: string, self: string): Promise<HostRecords> {
  const notes = await listNotes(api, mr);
  const text = (n: NoteAnswer): HostText => ({
    id: n.id,
    body: n.body,
    author: n.author === null ? null : { login: n.author.username, isBot: n.author.username === self },
    submittedAt: n.created_at,
  });
  return {
    self,
    comments: notes.filter((n) => n.type === "DiffNote").map(text),
    reviews: notes.filter((n) => n.type !== "DiffNote").map(text),
  };
}

interface DiscussionAnswer {
  readonly id: string;
  readonly notes: readonly NoteAnswer[];
}

/**
 * GitLab's names of the 👎 award emoji: a skin tone is an emoji of its own name, thumbsdown_tone1
 * to thumbsdown_tone5 (fixtures/emojis/digests.json, the names AwardEmoji validates against).
 */
const THUMBS_DOWN = /^thumbsdown(_tone[1-5])?$/;
/** As on GitHub: the first 20 👎 of a finding are read. */
const MAX_THUMBS_DOWN = 20;

interface AwardAnswer {
  readonly name: string;
  readonly user: { readonly username: string } | null;
  readonly created_at: string | null;
}

/**
 * The merge request's diff discussions as review threads; with `thumbsDown`, the 👎 award emoji on
 * the first note of each of Loupe's discussions too (a call per discussion, so only when the
 * ledger asks).
 */
export async function readThreads(
  api: GitLabApi,
  mr: string,
  self: string,
  options: { readonly thumbsDown?: boolean } = {},
): Promise<ReviewThread[]> {
  const { items } = await api.pages<DiscussionAnswer>(`${mr}/discussions`);
  const current = await api.get<{ readonly diff_refs: { readonly head_sha: string } | null }>(mr);
  const head = current.diff_refs?.head_sha ?? null;
  const threads: ReviewThread[] = [];
  for (const discussion of items) {
    const first = discussion.notes[0];
    if (first?.type !== "DiffNote" || first.position == null) continue;
    const thread = threadOf(discussion, first, first.position, { self, head });
    const loupe = first.author?.username === self;
    threads.push(
      options.thumbsDown && loupe ? { ...thread, thumbsDown: await thumbsDown(api, mr, first.id) } : thread,
    );
  }
  return threads;
}

async function thumbsDown(api: GitLabApi, mr: string, noteId: number): Promise<ThumbsDown[]> {
  const { items } = await api.pages<AwardAnswer>(`${mr}/notes/${noteId}/award_emoji`, {}, 1);
  return items
    .filter((award) => THUMBS_DOWN.test(award.name))
    .slice(0, MAX_THUMBS_DOWN)
    .map((award) => ({
      createdAt: award.created_at,
      user:
        award.user === null
          ? null
          : { login: award.user.username, isBot: BOT_USERNAME.test(award.user.username) },
    }));
}

function threadOf(
  discussion: DiscussionAnswer,
  first: NoteAnswer,
  position: NonNullable<NoteAnswer["position"]>,
  { self, head }: { readonly self: string; readonly head: string | null },
): ReviewThread {
  // Loupe's token user, or a project's or group's access token user: GitLab's bot accounts.
  const login = (username: string) => ({
    login: username,
    isBot: username === self || BOT_USERNAME.test(username),
  });
  return {
    id: discussion.id,
    isResolved: first.resolved === true,
    // GitLab moves a note's position to each new diff whose line it can trace unchanged
    // (DiffNote#update_position, Gitlab::Diff::PositionTracer) and leaves it on the old diff when
    // the line changed: a note is current only while its position's diff is the merge request's
    // (DiffNote#active?, app/models/diff_note.rb). A position whose head is not today's head, or
    // on a line the new side no longer has, is GitHub's "outdated": its code changed.
    isOutdated: position.new_line === null || (head !== null && position.head_sha !== head),
    path: position.new_path,
    line: position.new_line,
    startLine: null,
    comments: discussion.notes.map((n) => ({
      databaseId: n.id,
      body: n.body,
      author: n.author === null ? null : login(n.author.username),
    })),
    resolvedBy: first.resolved_by == null ? null : login(first.resolved_by.username),
  };
}
