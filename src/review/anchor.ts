// Anchoring and planning, as one import for the publisher: finding → commentable line, and the
// plan that sorts every finding into inline, outside (review body), below threshold or duplicate.

export { anchorFinding, findingRange } from "./anchor-finding.ts";
export { planReview } from "./plan-review.ts";
export type {
  Anchor,
  InlineAnchor,
  OutsideReason,
  PlannedComment,
  PlannedOutside,
  PlanOutsideReason,
  PublishPlan,
} from "./plan-types.ts";
