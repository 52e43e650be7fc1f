// The check run's external_id carries the PR number, because re-run events for fork PRs arrive
// with an empty pull_requests[] and there is no other way back to the pull request.

const EXTERNAL_ID = /^loupe:pr=([1-9][0-9]{0,9})$/;

export function formatExternalId(pullNumber: number): string {
  return `loupe:pr=${pullNumber}`;
}

export function parseExternalId(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const match = EXTERNAL_ID.exec(value);
  return match ? Number(match[1]) : null;
}
