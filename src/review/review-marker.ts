// The hidden marker in each review body, per (head SHA, check run). Probot retries 5xx POSTs, so
// a createReview that timed out may have been posted after all: before posting again, Loupe looks
// for this marker. Model text cannot forge it: the sanitiser removes or breaks every "<!-- loupe".

export function reviewMarker(headSha: string, checkRunId: number): string {
  if (!/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(headSha)) throw new TypeError("headSha must be a full hex SHA");
  if (!Number.isSafeInteger(checkRunId) || checkRunId < 0)
    throw new TypeError("checkRunId must be an integer");
  return `<!-- loupe:review sha=${headSha} run=${checkRunId} -->`;
}

export function hasReviewMarker(
  body: string | null | undefined,
  headSha: string,
  checkRunId: number,
): boolean {
  return typeof body === "string" && body.includes(reviewMarker(headSha, checkRunId));
}

/**
 * The hidden marker of the note a host publishes a review's findings in when it would not place
 * them on their lines after the rest of the review landed (GitLab): the review's own marker, named
 * apart, so a retry finds both and tells them apart.
 */
export function unplacedMarker(reviewMarker: string): string {
  return reviewMarker.replace(/^<!-- loupe:review /, "<!-- loupe:unplaced ");
}
