// Whether automatic reviews on push are paused for one pull request. The state lives on GitHub,
// in a hidden marker inside the comment with which Loupe answers `pause` or `resume`, so every
// replica and every restart reads the same answer. Only Loupe's own comments count: anyone else
// writing the marker changes nothing.

export type PauseState = "paused" | "active";

const MARKER = /<!-- loupe:auto-review (paused|active) -->/g;

export function pauseMarker(state: PauseState): string {
  return `<!-- loupe:auto-review ${state} -->`;
}

export interface IssueCommentLike {
  readonly id: number;
  readonly body?: string | null;
  readonly user?: { readonly login?: string; readonly type?: string } | null;
  readonly created_at?: string;
}

/** The state the newest of Loupe's marked comments set; `active` when there is none. */
export function currentPauseState(comments: readonly IssueCommentLike[], botLogin: string): PauseState {
  let newest: { at: string; id: number; state: PauseState } | null = null;
  for (const comment of comments) {
    if (comment.user?.type !== "Bot" || comment.user.login !== botLogin) continue;
    if (typeof comment.body !== "string") continue;
    const states = [...comment.body.matchAll(MARKER)].map((m) => m[1] as PauseState);
    if (states.length === 0) continue;
    const at = comment.created_at ?? "";
    if (newest === null || at > newest.at || (at === newest.at && comment.id > newest.id)) {
      newest = { at, id: comment.id, state: states[states.length - 1]! };
    }
  }
  return newest?.state ?? "active";
}
