// What the conversation needs from a forge, beside the review's host: the permission check, the
// acknowledgement, a comment, the pull request's head, a review comment's root, the pause. The
// command handler stays pure over it; each forge implements it on its own API.

import type { ForgeWords } from "../domain/forge-words.ts";

export type CommentSource = "issue_comment" | "review_comment";

export interface PullHead {
  readonly headSha: string;
  readonly open: boolean;
}

export interface RootComment {
  readonly id: number;
  readonly body: string;
  readonly login: string | null;
  readonly type: string | null;
}

export interface ConversationApi {
  /** The forge's words, for the texts Loupe answers with (the help names pull or merge requests). */
  readonly words: ForgeWords;
  canWrite(login: string): Promise<boolean>;
  acknowledge(source: CommentSource, commentId: number): Promise<void>;
  postComment(pullNumber: number, body: string): Promise<void>;
  pullHead(pullNumber: number): Promise<PullHead>;
  reviewComment(commentId: number): Promise<RootComment | null>;
  setPaused(pullNumber: number, paused: boolean): Promise<void>;
}
