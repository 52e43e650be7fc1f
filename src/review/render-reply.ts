// Loupe's answer in one of its review threads: the model's reply as inert Markdown (the same tree
// and allow-list as findings), one line with the finding's status and what the loop spent, and a
// hidden marker naming the comment answered, so a retried or redelivered job never answers twice.
// A loop that ended without a reply gets a short reply saying why, never silence.

import type { ForgeWords } from "../domain/forge-words.ts";
import type { TerminationReason } from "../domain/outcome.ts";
import { terminationSentence } from "../domain/outcome.ts";
import type { FindingStatus } from "../llm/reply-schema.ts";
import { serializeBlocks } from "./markdown-serialize.ts";
import { type Block, emphasis, hiddenMarker, paragraph, text } from "./markdown-tree.ts";
import type { RepositoryRef } from "./repository-link.ts";
import { sanitizeBlocks } from "./sanitize.ts";

/** GitHub's limit on a review comment body. */
const MAX_COMMENT_BODY = 65536;
/** Room for the status line and the marker. */
const FOOTER_ROOM = 1024;

const STATUS_TEXT: Readonly<Record<FindingStatus, string>> = {
  still_valid: "Finding status: still valid.",
  fixed: "Finding status: fixed.",
  withdrawn: "Finding status: withdrawn.",
  dismissed: "Finding status: dismissed (Loupe will not raise it again unless its code changes).",
};

// GitHub's logins (letters, digits, hyphens) and GitLab's usernames (also `.` and `_`, up to 255).
const LOGIN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/;

/** The status for the ledger (finding-ledger.ts); a dismissal names the writer it came from. */
export function statusMarker(status: FindingStatus, by: string | null): string {
  const who = status === "dismissed" && by !== null && LOGIN.test(by) ? ` by=${by}` : "";
  return `<!-- loupe:status=${status}${who} -->`;
}

export interface ReplySpend {
  readonly rounds: number;
  readonly toolCalls: number;
}

export function replyMarker(commentId: number): string {
  if (!Number.isSafeInteger(commentId) || commentId <= 0)
    throw new TypeError("commentId must be a positive integer");
  return `<!-- loupe:reply-to=${commentId} -->`;
}

/** Whether a comment body is Loupe's answer to `commentId` (Loupe searches raw bodies). */
export function answersComment(body: string | null | undefined, commentId: number): boolean {
  return typeof body === "string" && body.includes(replyMarker(commentId));
}

function spendText(spend: ReplySpend): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `${plural(spend.rounds, "round")}, ${plural(spend.toolCalls, "tool call")}`;
}

export function renderThreadReply(input: {
  readonly reply: string;
  readonly status: FindingStatus;
  readonly spend: ReplySpend;
  readonly answering: number;
  readonly repository: RepositoryRef;
  /** The login of the writer whose reply was answered (a dismissal is theirs). */
  readonly replier?: string | null;
}): string {
  const tail: Block[] = [
    paragraph(emphasis(text(`${STATUS_TEXT[input.status]} (Loupe · ${spendText(input.spend)})`))),
    hiddenMarker(replyMarker(input.answering)),
    hiddenMarker(statusMarker(input.status, input.replier ?? null)),
  ];
  const body = sanitizeBlocks(input.reply, input.repository, MAX_COMMENT_BODY - FOOTER_ROOM);
  return serializeBlocks([...body, ...tail]);
}

/** A reply the budgets refused: one line that says why, when it starts again and who can change it. */
export function renderReplyRefused(input: { readonly detail: string; readonly answering: number }): string {
  return serializeBlocks([
    paragraph(text(`Loupe did not answer this reply. ${input.detail}`)),
    hiddenMarker(replyMarker(input.answering)),
  ]);
}

export function renderReplyFailure(input: {
  readonly reason: TerminationReason | "error";
  readonly detail: string | null;
  readonly answering: number;
  /** Names the forge a reason's sentence may name. */
  readonly words: Pick<ForgeWords, "forge">;
}): string {
  const why =
    input.reason === "error"
      ? "Something went wrong while Loupe worked on it."
      : terminationSentence(input.reason, input.words);
  const blocks: Block[] = [
    paragraph(text(`Loupe could not answer this reply. ${why}`)),
    ...(input.detail === null ? [] : [paragraph(emphasis(text(input.detail.slice(0, 2000))))]),
    paragraph(text("Mention Loupe in this thread again to retry.")),
    hiddenMarker(replyMarker(input.answering)),
  ];
  return serializeBlocks(blocks);
}
