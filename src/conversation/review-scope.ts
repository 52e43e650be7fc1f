// Whether a review can focus on what is new since Loupe's last review of the pull request, or
// must cover the whole pull request again, and why. Incremental needs all of: an earlier review
// (its hidden marker), the same merge-base (the base did not move), the same configuration, and
// the last reviewed head an ancestor of the new one (no force-push, no rebase).

import type { ForgeWords } from "../domain/forge-words.ts";
import type { ReviewedState } from "./review-state.ts";

/** GitHub's compare lastHead...newHead, reduced to what the decision needs (null: 404). */
export interface HeadComparison {
  readonly status: "ahead" | "behind" | "diverged" | "identical";
  readonly aheadBy: number;
}

export type FullReason =
  | "asked_full"
  | "incremental_off"
  | "no_earlier_review"
  | "same_head"
  | "config_changed"
  | "base_moved"
  | "history_rewritten";

export type ReviewScope =
  | { readonly kind: "incremental"; readonly sinceSha: string; readonly commits: number }
  | { readonly kind: "full"; readonly reason: FullReason; readonly sinceSha: string | null };

export interface ScopeInput {
  readonly askedFull: boolean;
  readonly incrementalEnabled: boolean;
  readonly last: ReviewedState | null;
  readonly current: {
    readonly headSha: string;
    readonly mergeBaseSha: string;
    readonly configDigest: string;
  };
  /** Only consulted when the rest allows an incremental review; null means GitHub answered 404. */
  readonly compare: () => Promise<HeadComparison | null>;
}

export async function decideReviewScope(input: ScopeInput): Promise<ReviewScope> {
  const full = (reason: FullReason): ReviewScope => ({
    kind: "full",
    reason,
    sinceSha: input.last?.headSha ?? null,
  });
  if (input.askedFull) return full("asked_full");
  if (!input.incrementalEnabled) return full("incremental_off");
  const { last, current } = input;
  if (last === null) return full("no_earlier_review");
  if (last.headSha === current.headSha) return full("same_head");
  if (last.configDigest !== current.configDigest) return full("config_changed");
  if (last.mergeBaseSha !== current.mergeBaseSha) return full("base_moved");
  const comparison = await input.compare();
  if (comparison === null || comparison.status !== "ahead" || comparison.aheadBy < 1) {
    return full(comparison?.status === "identical" ? "same_head" : "history_rewritten");
  }
  return { kind: "incremental", sinceSha: last.headSha, commits: comparison.aheadBy };
}

const reasons = (words: ForgeWords): Record<FullReason, string> => ({
  asked_full: "a full review was asked for",
  incremental_off: `\`incremental\` is off in ${words.settingsFile}`,
  no_earlier_review: `Loupe has not reviewed this ${words.change} before`,
  same_head: "the head is the one Loupe reviewed last",
  config_changed: `${words.settingsFile} changed since the last review`,
  base_moved: "the base moved since the last review (a new merge-base)",
  history_rewritten: "the last reviewed commit is not an ancestor of the head (force-push or rebase)",
});

/** One line for the check run: "incremental: 2 commits since abc1234" or "full review: <why>". */
export function describeScope(scope: ReviewScope, words: ForgeWords): string {
  if (scope.kind === "incremental") {
    const noun = scope.commits === 1 ? "commit" : "commits";
    return `incremental: ${scope.commits} ${noun} since ${scope.sinceSha.slice(0, 7)}`;
  }
  return `full review: ${reasons(words)[scope.reason]}`;
}
