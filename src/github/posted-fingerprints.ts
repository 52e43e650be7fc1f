// What Loupe already said on this pull request: the fingerprints hidden in its earlier review
// comments and review bodies. Only bot-authored texts count (and only Loupe's own bot when its
// login is known); the sanitiser strips forged markers from model text, so a marker is Loupe's.

import { extractFingerprints } from "../review/fingerprint.ts";
import type { GitHubClient, RepoRef } from "./octokit.ts";

interface Authored {
  readonly body?: string | null;
  readonly user?: { readonly login?: string; readonly type?: string } | null;
}

function isLoupe(item: Authored, botLogin: string | null): boolean {
  if (item.user?.type !== "Bot") return false;
  return botLogin === null || item.user.login === botLogin;
}

export async function listPostedFingerprints(
  octokit: GitHubClient,
  input: RepoRef & { readonly pullNumber: number; readonly botLogin: string | null },
): Promise<Set<string>> {
  const params = { owner: input.owner, repo: input.repo, pull_number: input.pullNumber, per_page: 100 };
  const [comments, reviews] = await Promise.all([
    octokit.paginate(octokit.rest.pulls.listReviewComments, params),
    octokit.paginate(octokit.rest.pulls.listReviews, params),
  ]);
  const found = new Set<string>();
  for (const item of [...comments, ...reviews] as Authored[]) {
    if (!isLoupe(item, input.botLogin) || typeof item.body !== "string") continue;
    for (const fp of extractFingerprints(item.body)) found.add(fp);
  }
  return found;
}
