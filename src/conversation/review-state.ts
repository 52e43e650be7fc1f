// What Loupe reviewed last on a pull request, read back from the hidden marker in its own review
// bodies: the head, the merge-base the diff started from, and a digest of the repository
// configuration. GitHub keeps it, so every replica and every restart sees the same last review.

import { createHash } from "node:crypto";

export interface ReviewedState {
  readonly headSha: string;
  readonly mergeBaseSha: string;
  readonly configDigest: string;
}

const HEX40 = "[0-9a-f]{40}(?:[0-9a-f]{24})?";
const MARKER = new RegExp(
  `<!-- loupe:reviewed head=(${HEX40}) base=(${HEX40}) config=([0-9a-f]{16}) -->`,
  "g",
);

export function reviewedMarker(state: ReviewedState): string {
  const ok =
    new RegExp(`^${HEX40}$`).test(state.headSha) &&
    new RegExp(`^${HEX40}$`).test(state.mergeBaseSha) &&
    /^[0-9a-f]{16}$/.test(state.configDigest);
  if (!ok) throw new TypeError("reviewed marker needs full hex SHAs and a 16-digit config digest");
  return `<!-- loupe:reviewed head=${state.headSha} base=${state.mergeBaseSha} config=${state.configDigest} -->`;
}

/** 16 hex digits of SHA-256 over the configuration as canonical JSON (key order does not matter). */
export function configDigest(config: unknown): string {
  return createHash("sha256").update(canonicalJson(config), "utf8").digest("hex").slice(0, 16);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** One text the host keeps on the pull request (a review comment, a review's body), as written. */
export interface HostText {
  readonly id: number;
  readonly body: string | null;
  /** null when the host no longer knows the author (a deleted account). */
  readonly author: { readonly login: string; readonly isBot: boolean } | null;
  /** ISO 8601; null when the host gives no time. */
  readonly submittedAt: string | null;
}

/** The state in the newest of Loupe's own reviews that carries the marker, or null. */
export function lastReviewedState(reviews: readonly HostText[], botLogin: string): ReviewedState | null {
  let newest: { at: string; id: number; state: ReviewedState } | null = null;
  for (const review of reviews) {
    if (review.author?.isBot !== true || review.author.login !== botLogin) continue;
    if (review.body === null) continue;
    const found = [...review.body.matchAll(MARKER)];
    const last = found[found.length - 1];
    if (last === undefined) continue;
    const at = review.submittedAt ?? "";
    if (newest === null || at > newest.at || (at === newest.at && review.id > newest.id)) {
      newest = {
        at,
        id: review.id,
        state: { headSha: last[1]!, mergeBaseSha: last[2]!, configDigest: last[3]! },
      };
    }
  }
  return newest?.state ?? null;
}
