// Reads `.github/loupe.yml` (or the path the GitHub Action was given) from the repository's default
// branch (no ref), so a pull request — a fork's included — cannot change how Loupe reviews it. A
// missing file means the defaults.

import { MAX_CONFIG_BYTES, REPO_CONFIG_PATH } from "../../config/repo-config.ts";
import type { ConfigFileRead } from "../../host/pull-request-host.ts";
import type { GitHubClient, RepoRef } from "./octokit.ts";
import { httpStatus } from "./octokit.ts";

export async function readRepoConfigFile(
  octokit: GitHubClient,
  ref: RepoRef,
  path: string = REPO_CONFIG_PATH,
): Promise<ConfigFileRead> {
  try {
    const { data } = await octokit.rest.repos.getContent({ owner: ref.owner, repo: ref.repo, path });
    if (Array.isArray(data) || data.type !== "file" || !("content" in data)) {
      return { kind: "unreadable", message: `${path} is not a regular file.` };
    }
    if (data.size > MAX_CONFIG_BYTES) {
      return {
        kind: "unreadable",
        message: `${path} is larger than ${MAX_CONFIG_BYTES / 1024} KiB.`,
      };
    }
    const text = Buffer.from(data.content, "base64").toString("utf8");
    return { kind: "found", text };
  } catch (error) {
    if (httpStatus(error) === 404) return { kind: "missing" };
    throw error;
  }
}
