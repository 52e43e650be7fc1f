// What Loupe already said on this pull request: the fingerprints hidden in its earlier review
// comments and review bodies. Only texts by Loupe's own bot login (`<app slug>[bot]`) count: another
// bot (or a person) writing a fingerprint marker must not be able to silence a finding.

import { extractFingerprints } from "../review/fingerprint.ts";
import type { GitHubClient, RepoRef } from "./octokit.ts";

interface Authored {
  readonly body?: string | null;
  readonly user?: { readonly login?: string; readonly type?: string } | null;
}

export function isLoupeAuthored(item: Authored, botLogin: string): boolean {
  return item.user?.type === "Bot" && item.user.login === botLogin;
}

export async function listPostedFingerprints(
  octokit: GitHubClient,
  input: RepoRef & { readonly pullNumber: number; readonly botLogin: string },
): Promise<Set<string>> {
  const params = { owner: input.owner, repo: input.repo, pull_number: input.pullNumber, per_page: 100 };
  const [comments, reviews] = await Promise.all([
    octokit.paginate(octokit.rest.pulls.listReviewComments, params),
    octokit.paginate(octokit.rest.pulls.listReviews, params),
  ]);
  const found = new Set<string>();
  for (const item of [...comments, ...reviews] as Authored[]) {
    if (!isLoupeAuthored(item, input.botLogin) || typeof item.body !== "string") continue;
    for (const fp of extractFingerprints(item.body)) found.add(fp);
  }
  return found;
}
