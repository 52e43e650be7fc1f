// The values that flow from a validated final review to what Loupe posts: where each finding
// can be anchored, and the plan that sorts every finding into exactly one bucket.

import type { Finding } from "../domain/finding.ts";
import type { FindingIdentity } from "./finding-identity.ts";

export type OutsideReason =
  | "file_not_in_diff"
  | "no_patch"
  | "line_not_in_diff"
  | "range_spans_hunks"
  | "no_line";

export type InlineAnchor = {
  readonly kind: "inline";
  readonly path: string;
  readonly line: number;
  /** Only when the anchored range has more than one line; always in the same hunk as `line`. */
  readonly startLine?: number;
  readonly side: "RIGHT";
  /** True when the anchored range is the finding's whole range (a suggestion may replace it). */
  readonly fullRange: boolean;
};

export type Anchor = InlineAnchor | { readonly kind: "outside"; readonly reason: OutsideReason };

export type PlanOutsideReason = OutsideReason | "inline_limit";

export interface PlannedComment {
  readonly path: string;
  readonly line: number;
  readonly start_line?: number;
  readonly side: "RIGHT";
  readonly start_side?: "RIGHT";
  readonly body: string;
  readonly fingerprint: string;
  readonly finding: Finding;
  /** The ledger's identity of the finding (finding-identity.ts), for the 422 fallback's body. */
  readonly identity?: FindingIdentity;
}

export interface PlannedOutside {
  readonly finding: Finding;
  readonly reason: PlanOutsideReason;
  readonly fingerprint: string;
  readonly identity?: FindingIdentity;
}

/** What this review's ledger says of a finding it raised (ledger.ts): the status an agent reads. */
export type PlacedStatus = "new" | "open" | "dismissed" | "withdrawn";

/** Every finding at or above min_severity, in the plan's order, with where it went and its identity. */
export interface PlacedFinding {
  readonly finding: Finding;
  readonly fingerprint: string;
  readonly identity: FindingIdentity;
  readonly status: PlacedStatus;
  /** A dismissed finding posted again because the code it points at changed. */
  readonly raisedAgain: boolean;
  /** inline: an inline comment now; body: the review body now; none: not posted this time. */
  readonly posted: "inline" | "body" | "none";
  /** The finding's own range on the head, [first, last] (null: it names no line). */
  readonly lines: readonly [number, number] | null;
}

export interface PublishPlan {
  readonly inline: PlannedComment[];
  readonly outside: PlannedOutside[];
  readonly belowThreshold: Finding[];
  readonly duplicates: Finding[];
  /** Findings a person dismissed (or Loupe withdrew) on the same code: not raised again. */
  readonly dismissed: Finding[];
  /** The fingerprint of every finding at or above min_severity, new or already posted. */
  readonly raised: Set<string>;
  /** Each finding at or above min_severity, with its ledger status and identity (machine output). */
  readonly placed: PlacedFinding[];
}
