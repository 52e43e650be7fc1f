// Rendering, as one import for the publisher: review marker, inline comments, review body.

export { MAX_REVIEW_BODY, type RenderReviewBodyInput, renderReviewBody } from "./render-body.ts";
export { MAX_SUGGESTION_CHARS, renderInlineComment, renderSuggestion } from "./render-inline.ts";
export { hasReviewMarker, reviewMarker } from "./review-marker.ts";
