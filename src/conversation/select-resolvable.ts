// Which of Loupe's own threads to resolve after a review: those whose finding no longer applies.
// The anchored lines must have changed (GitHub marks the thread outdated, the file was removed,
// or the new commits touched the anchored lines) and the new review must not raise the same
// finding again (same fingerprint). A thread where a person's reply is still unanswered is left
// for the conversation, and at most MAX_RESOLVED are resolved per review.

import { hasUnansweredReply, loupeFingerprint, type ReviewThread } from "./review-thread.ts";

export const MAX_RESOLVED = 50;

/** The new commits' effect on one file, in head line numbers (from the diff last head → new head). */
export interface FileChange {
  readonly removed: boolean;
  readonly changedLines: ReadonlySet<number>;
}

export interface ResolvableInput {
  readonly threads: readonly ReviewThread[];
  readonly botLogin: string;
  /** Every fingerprint the new review raised, new or already posted. */
  readonly raisedAgain: ReadonlySet<string>;
  /** The incremental diff by path; null after a full review (then only GitHub's outdated flag counts). */
  readonly changes: ReadonlyMap<string, FileChange> | null;
  readonly max?: number;
}

export function anchorChanged(thread: ReviewThread, changes: ResolvableInput["changes"]): boolean {
  if (thread.isOutdated || thread.line === null) return true;
  const change = changes?.get(thread.path);
  if (change === undefined) return false;
  if (change.removed) return true;
  const first = thread.startLine ?? thread.line;
  for (let line = Math.min(first, thread.line); line <= Math.max(first, thread.line); line++) {
    if (change.changedLines.has(line)) return true;
  }
  return false;
}

export function selectResolvable(input: ResolvableInput): ReviewThread[] {
  const max = Math.min(input.max ?? MAX_RESOLVED, MAX_RESOLVED);
  const chosen: ReviewThread[] = [];
  for (const thread of input.threads) {
    if (chosen.length >= max) break;
    if (thread.isResolved) continue;
    const fingerprint = loupeFingerprint(thread, input.botLogin);
    if (fingerprint === null || input.raisedAgain.has(fingerprint)) continue;
    if (hasUnansweredReply(thread, input.botLogin)) continue;
    if (anchorChanged(thread, input.changes)) chosen.push(thread);
  }
  return chosen;
}
