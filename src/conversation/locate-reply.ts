// Finds the reply to answer in the pull request's review threads and decides whether Loupe
// answers it: the thread must be Loupe's (its first comment is Loupe's), the reply must still be
// there, and Loupe must not have answered it already (a redelivered webhook, or a job retried after
// a crash, sees Loupe's reply-to marker and stops).

import { answersComment } from "../review/render-reply.ts";
import { isBotComment, type ReviewThread, type ThreadComment } from "./review-thread.ts";

export type ReplySkipReason =
  | "thread_not_found"
  | "not_loupe_thread"
  | "reply_not_found"
  | "already_answered";

export type LocatedReply =
  | { readonly kind: "skip"; readonly reason: ReplySkipReason }
  | {
      readonly kind: "found";
      readonly thread: ReviewThread;
      /** Loupe's finding: the thread's first comment. */
      readonly finding: ThreadComment;
      /** The comments after the finding, up to and including the reply to answer. */
      readonly conversation: readonly ThreadComment[];
      /** A person wrote in the thread after this reply: that comment is theirs to have answered. */
      readonly laterHumanReply: boolean;
    };

export function locateReply(
  threads: readonly ReviewThread[],
  request: { readonly rootCommentId: number; readonly replyCommentId: number },
  botLogin: string,
): LocatedReply {
  const thread = threads.find((t) => t.comments[0]?.databaseId === request.rootCommentId);
  if (thread === undefined) return { kind: "skip", reason: "thread_not_found" };
  const finding = thread.comments[0]!;
  if (!isBotComment(finding, botLogin)) return { kind: "skip", reason: "not_loupe_thread" };
  const at = thread.comments.findIndex((c) => c.databaseId === request.replyCommentId);
  if (at <= 0) return { kind: "skip", reason: "reply_not_found" };
  const answered = thread.comments.some(
    (c) => isBotComment(c, botLogin) && answersComment(c.body, request.replyCommentId),
  );
  if (answered) return { kind: "skip", reason: "already_answered" };
  return {
    kind: "found",
    thread,
    finding,
    conversation: thread.comments.slice(1, at + 1),
    laterHumanReply: thread.comments.slice(at + 1).some((c) => !isBotComment(c, botLogin)),
  };
}
