// One inline review comment: severity badge, title, explanation, evidence, recommendation, an
// optional suggestion, and the hidden fingerprint marker that lets a later run skip it.

import type { Finding } from "../llm/types.ts";
import { fingerprintMarker } from "./fingerprint.ts";
import { breakMarkers, codeBlock, fenceFor, stripInvisible } from "./markdown-text.ts";
import type { InlineAnchor } from "./plan-types.ts";
import { INLINE_BUDGETS, renderFindingFields, renderHeading } from "./render-finding.ts";
import type { RepositoryRef } from "./sanitize-prose.ts";

/** Suggestions longer than this are not offered (GitHub's comment body limit is 65,536). */
export const MAX_SUGGESTION_CHARS = 16000;

export function renderInlineComment(
  finding: Finding,
  anchor: InlineAnchor,
  fingerprint: string,
  suggestionAllowed: boolean,
  repository: RepositoryRef,
): string {
  const parts = [
    renderHeading(finding, repository),
    ...renderFindingFields(finding, repository, INLINE_BUDGETS),
  ];
  const suggestion = renderSuggestion(finding.suggestion, suggestionAllowed && anchor.fullRange);
  if (suggestion !== null) parts.push(suggestion);
  parts.push(fingerprintMarker(fingerprint));
  return parts.join("\n\n");
}

/**
 * A ```suggestion block replaces exactly the commented range, so it is offered only when that
 * range is the finding's whole range (inside one hunk, RIGHT side). Otherwise the code is shown
 * as a plain block that cannot be applied with one click.
 */
export function renderSuggestion(suggestion: string | null | undefined, allowed: boolean): string | null {
  if (typeof suggestion !== "string") return null;
  const content = breakMarkers(stripInvisible(suggestion)).replace(/\n$/, "");
  if (content.length > MAX_SUGGESTION_CHARS) {
    return "*A suggested change was left out: it is longer than Loupe publishes.*";
  }
  if (allowed) {
    const fence = fenceFor(content);
    return `${fence}suggestion\n${content}\n${fence}`;
  }
  if (content.trim() === "") return null; // a deletion cannot be shown usefully as plain code
  return `**Suggested code** (not offered as a one-click suggestion: the finding's lines are not all inside one diff hunk)\n\n${codeBlock(content)}`;
}
