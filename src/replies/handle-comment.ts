// What Loupe does with one pull request comment: nothing (not addressed to it, a bot, or someone
// who cannot write to the repository: no reply, no reaction), a command (acknowledged with 👀 at
// once), or a reply in one of Loupe's own review threads (queued for the reply loop). The author's
// permission is the first thing asked of GitHub. Only the pull request's author and people with
// write access get the model's time: the author without write access is answered in Loupe's
// threads on their own pull request (the findings are about their code), never for a command. Pure over the GitHub adapter and the two queues,
// so every branch is tested with nock and real payloads.

import { type CommandName, mentionsBot, parseCommand } from "../conversation/command.ts";
import type { ConversationApi } from "../conversation/conversation-api.ts";
import { closedText, helpText, pausedText, resumedText } from "../conversation/help-text.ts";
import { decideAuthor } from "../conversation/permission.ts";
import { type ForgeTag, forgeTagOf, type ReviewRequest } from "../domain/review-request.ts";
import type { CommentEvent } from "./comment-event.ts";

/** A reply asked for in one of Loupe's threads, tagged with the forge that delivered it. */
export type ThreadReplyRequest = AskedReply & ForgeTag;

interface AskedReply {
  readonly deliveryId: string;
  readonly owner: string;
  readonly repo: string;
  readonly pullNumber: number;
  /** The thread's first comment (Loupe's finding). */
  readonly rootCommentId: number;
  readonly replyCommentId: number;
}

export type IgnoreReason =
  | "no_mention"
  | "bot"
  | "self"
  | "no_login"
  | "not_a_writer"
  | "permission_unknown"
  | "not_loupe_thread"
  | "replies_off";

export type CommentOutcome =
  | { readonly kind: "ignored"; readonly reason: IgnoreReason }
  | { readonly kind: "answered"; readonly command: CommandName }
  | { readonly kind: "review_queued"; readonly command: CommandName; readonly queue: string }
  | { readonly kind: "closed" }
  | { readonly kind: "reply_queued"; readonly queue: string };

export interface HandleCommentOptions {
  readonly event: CommentEvent;
  readonly botLogin: string;
  readonly api: ConversationApi;
  readonly enqueueReview: (request: ReviewRequest) => Promise<string>;
  /** Absent: replies in Loupe's threads are not answered (and not acknowledged). */
  readonly enqueueReply?: (request: ThreadReplyRequest) => Promise<string>;
  /** The 👀 is a courtesy: its failure is reported here and the command still runs. */
  readonly onAcknowledgeError?: (error: unknown) => void;
  /** The permission lookup failed (GitHub 5xx, a network error): the comment is ignored. */
  readonly onPermissionError?: (error: unknown) => void;
}

type Intent =
  | { readonly kind: "command"; readonly command: CommandName; readonly unknown: boolean }
  | { readonly kind: "thread_reply"; readonly rootCommentId: number };

/** What the comment asks, from its text alone: no API call before the author's permission is known. */
type Addressed =
  | { readonly kind: "command"; readonly command: CommandName; readonly unknown: boolean }
  | { readonly kind: "maybe_thread_reply"; readonly inReplyTo: number };

function addressedAs(options: HandleCommentOptions): Addressed | IgnoreReason {
  const { event, botLogin } = options;
  const parsed = parseCommand(event.body, botLogin);
  const exact = parsed.kind === "command" && !parsed.unknown && parsed.command !== "help";
  if (
    event.source === "review_comment" &&
    event.inReplyTo !== null &&
    !exact &&
    mentionsBot(event.body, botLogin)
  ) {
    return options.enqueueReply === undefined
      ? "replies_off"
      : { kind: "maybe_thread_reply", inReplyTo: event.inReplyTo };
  }
  if (parsed.kind === "none") return "no_mention";
  // In a review thread that is not Loupe's, only a command is read; a question there is for people.
  if (event.source === "review_comment" && parsed.unknown) return "not_loupe_thread";
  return { kind: "command", command: parsed.command, unknown: parsed.unknown };
}

/** A reply is Loupe's to answer only in a thread Loupe started. */
async function intentOf(options: HandleCommentOptions, addressed: Addressed): Promise<Intent | IgnoreReason> {
  if (addressed.kind === "command") return addressed;
  const root = await options.api.reviewComment(addressed.inReplyTo);
  const loupeThread = root !== null && root.type === "Bot" && root.login === options.botLogin;
  return loupeThread ? { kind: "thread_reply", rootCommentId: root.id } : "not_loupe_thread";
}

/** A reply in a review thread on the pull request this person opened (commands still need write access). */
function ownThreadReply(event: CommentEvent, login: string, addressed: Addressed): boolean {
  const opener = event.pullAuthor ?? null;
  return (
    addressed.kind === "maybe_thread_reply" && opener !== null && opener.toLowerCase() === login.toLowerCase()
  );
}

export async function handleComment(options: HandleCommentOptions): Promise<CommentOutcome> {
  const { event, botLogin, api } = options;
  const author = decideAuthor(event.author, botLogin);
  if (author.kind === "ignored") return { kind: "ignored", reason: author.reason };
  const addressed = addressedAs(options);
  if (typeof addressed === "string") return { kind: "ignored", reason: addressed };
  // The first API call a mention causes: nothing else is asked of GitHub for someone who cannot
  // write, and when GitHub cannot say, nothing is done (the person can ask again).
  let writer: boolean;
  try {
    writer = await api.canWrite(author.login);
  } catch (error) {
    options.onPermissionError?.(error);
    return { kind: "ignored", reason: "permission_unknown" };
  }
  if (!writer && !ownThreadReply(event, author.login, addressed))
    return { kind: "ignored", reason: "not_a_writer" };
  const intent = await intentOf(options, addressed);
  if (typeof intent === "string") return { kind: "ignored", reason: intent };
  await api
    .acknowledge(event.source, event.commentId)
    .catch((error: unknown) => options.onAcknowledgeError?.(error));

  if (intent.kind === "thread_reply") {
    const queue = await options.enqueueReply!({
      deliveryId: event.deliveryId,
      owner: event.owner,
      repo: event.repo,
      pullNumber: event.pullNumber,
      rootCommentId: intent.rootCommentId,
      replyCommentId: event.commentId,
      ...forgeTagOf(event),
    });
    return { kind: "reply_queued", queue };
  }
  const { command } = intent;
  if (command === "help" || command === "pause" || command === "resume") {
    const text =
      command === "help"
        ? helpText(botLogin, intent.unknown, api.words)
        : command === "pause"
          ? pausedText(botLogin, api.words)
          : resumedText(botLogin, api.words);
    if (command !== "help") await api.setPaused(event.pullNumber, command === "pause");
    await api.postComment(event.pullNumber, text);
    return { kind: "answered", command };
  }
  const pull = await api.pullHead(event.pullNumber);
  if (!pull.open) {
    await api.postComment(event.pullNumber, closedText(api.words));
    return { kind: "closed" };
  }
  const queue = await options.enqueueReview({
    deliveryId: event.deliveryId,
    trigger: command === "full_review" ? "command.full_review" : "command.review",
    owner: event.owner,
    repo: event.repo,
    pullNumber: event.pullNumber,
    headSha: pull.headSha,
    rerun: true,
    pullRequest: null,
    ...forgeTagOf(event),
  });
  return { kind: "review_queued", command, queue };
}
