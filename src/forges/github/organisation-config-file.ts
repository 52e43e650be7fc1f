// The organisation's file on GitHub: `.github/loupe.yml` of the owner's `.github` repository —
// GitHub's own place for an organisation's defaults — read from that repository's default branch
// (the contents API with no ref), never from a pull request or a fork. The installation must include
// `<owner>/.github` with contents: read; when it does not (404, or 403 for a token that may not read
// it), or the file is not there, there is no organisation layer.

import type { ConfigFile } from "../../config/config-file-read.ts";
import { REPO_CONFIG_PATH } from "../../config/repo-config.ts";
import type { GitHubClient } from "./octokit.ts";
import { httpStatus } from "./octokit.ts";
import { readRepoConfigFile } from "./repo-config-file.ts";

/** GitHub's name for an organisation's (or a user's) repository of defaults. */
export const ORGANISATION_CONFIG_REPO = ".github";

export async function readOrganisationConfigFile(
  octokit: GitHubClient,
  owner: string,
): Promise<ConfigFile | null> {
  const source = `${owner}/${ORGANISATION_CONFIG_REPO}: ${REPO_CONFIG_PATH} on its default branch`;
  try {
    const file = await readRepoConfigFile(octokit, { owner, repo: ORGANISATION_CONFIG_REPO });
    return file.kind === "missing" ? null : { file, source };
  } catch (error) {
    if (httpStatus(error) === 403) return null;
    throw error;
  }
}
