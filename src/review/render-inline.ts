// One inline review comment: severity badge, title, explanation, evidence, recommendation, an
// optional suggestion, and the hidden fingerprint marker that lets a later run skip it. Whatever
// the model wrote, the comment stays within GitHub's 65,536-character limit.

import type { Finding } from "../domain/finding.ts";
import type { ForgeWords } from "../domain/forge-words.ts";
import { type FindingIdentity, identityMarker } from "./finding-identity.ts";
import { fingerprintMarker } from "./fingerprint.ts";
import { plainFenceHolds } from "./inert-commands.ts";
import { canFenceSuggestion, serializeBlocks } from "./markdown-serialize.ts";
import { stripInvisible } from "./markdown-text.ts";
import { type Block, codeBlock, emphasis, hiddenMarker, paragraph, strong, text } from "./markdown-tree.ts";
import type { InlineAnchor } from "./plan-types.ts";
import { headingInlines, INLINE_BUDGETS, renderFindingFields } from "./render-finding.ts";
import type { RepositoryRef } from "./repository-link.ts";

/** GitHub's limit on a review comment body. */
export const MAX_COMMENT_BODY = 65536;
/** Suggestions longer than this are not offered (they would crowd out the explanation). */
export const MAX_SUGGESTION_CHARS = 16000;

/** The hidden marks of one finding: its fingerprint, its ledger identity, and whether it is back. */
export interface FindingMarks {
  readonly fingerprint: string;
  readonly identity?: FindingIdentity;
  /** A finding a person dismissed, raised again because the code it points at changed. */
  readonly raisedAgain?: boolean;
}

const RAISED_AGAIN =
  "Raised again: this finding was dismissed earlier, and the code it points at has changed since.";

export function renderInlineComment(
  finding: Finding,
  anchor: InlineAnchor,
  marks: FindingMarks | string,
  suggestionAllowed: boolean,
  repository: RepositoryRef,
  words: ForgeWords,
): string {
  const { fingerprint, identity, raisedAgain } = typeof marks === "string" ? { fingerprint: marks } : marks;
  const head: Block[] = [
    paragraph(...headingInlines(finding, INLINE_BUDGETS, repository)),
    ...(raisedAgain === true ? [paragraph(emphasis(text(RAISED_AGAIN)))] : []),
    ...renderFindingFields(finding, repository, INLINE_BUDGETS),
  ];
  const tail = [
    hiddenMarker(fingerprintMarker(fingerprint)),
    ...(identity === undefined ? [] : [hiddenMarker(identityMarker(identity))]),
  ];
  const room = MAX_COMMENT_BODY - serializeBlocks([...head, ...tail]).length - 2;
  const suggestion = renderSuggestion(finding.suggestion, suggestionAllowed && anchor.fullRange, words, {
    room,
    plainFences: repository.references === "wide",
  });
  return serializeBlocks([...head, ...suggestion, ...tail]);
}

/**
 * A ```suggestion block replaces exactly the commented range, so it is offered only when that
 * range is the finding's whole range (inside one hunk, RIGHT side) and a fence can hold it
 * (code-fence.ts). Otherwise, or when its fence would not fit in `room`, the code is shown as a
 * plain block that cannot be applied with one click, after a line saying why; when even that does
 * not fit, a line says it was left out. On a host that runs commands written in a note
 * (`plainFences`: GitLab), only a plain ``` fence protects its lines, and only from lines that are
 * not commands (inert-commands.ts): code that needs another fence, or has such a line, is plain code.
 */
export function renderSuggestion(
  suggestion: string | null | undefined,
  allowed: boolean,
  words: ForgeWords,
  {
    room = MAX_COMMENT_BODY,
    plainFences = false,
  }: { readonly room?: number; readonly plainFences?: boolean } = {},
): Block[] {
  if (typeof suggestion !== "string") return [];
  const content = stripInvisible(suggestion).replace(/\n$/, "");
  const leftOut = [
    paragraph(emphasis(text("A suggested change was left out: it is longer than Loupe publishes."))),
  ];
  if (content.length > MAX_SUGGESTION_CHARS) return leftOut;
  const fenceable = plainFences ? plainFenceHolds(content) : canFenceSuggestion(content);
  const fenced = allowed && fenceable;
  if (fenced) {
    const block = [codeBlock(content, "suggestion")];
    if (serializeBlocks(block).length <= room) return block;
  }
  if (content.trim() === "") return []; // a deletion cannot be shown usefully as plain code
  const why = !allowed
    ? "the finding's lines are not all inside one diff hunk"
    : fenced
      ? "its fence would not fit in a comment"
      : plainFences
        ? "a line of it could end its block or run as a quick action"
        : `a line of it is a run of 255 or more backticks, which ${words.forge} cannot fence`;
  const plain = [
    paragraph(strong(text("Suggested code")), text(` (not offered as a one-click suggestion: ${why})`)),
    codeBlock(content),
  ];
  return serializeBlocks(plain).length + 2 <= room ? plain : leftOut;
}
