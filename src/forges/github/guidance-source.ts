// Guidance files through the contents API with no ref: the repository's default branch, like
// `.github/loupe.yml`, so a pull request (a fork's included) cannot change what the model is told
// about the repository. A 404 is "absent"; other errors are left to the loader, which skips the
// file and says so.

import type { GuidanceDirEntry, GuidanceRead, GuidanceSource } from "../../guidance/types.ts";
import type { GitHubClient, RepoRef } from "./octokit.ts";
import { httpStatus } from "./octokit.ts";

export function githubGuidanceSource(octokit: GitHubClient, ref: RepoRef): GuidanceSource {
  const get = async (path: string) => {
    try {
      return (await octokit.rest.repos.getContent({ owner: ref.owner, repo: ref.repo, path })).data;
    } catch (error) {
      if (httpStatus(error) === 404) return null;
      throw error;
    }
  };
  return {
    async list(dir): Promise<GuidanceDirEntry[]> {
      const data = await get(dir);
      if (!Array.isArray(data)) return [];
      return data.map((entry) => ({
        name: entry.name,
        type: entry.type === "file" || entry.type === "dir" ? entry.type : "other",
      }));
    },
    async read(path, maxBytes): Promise<GuidanceRead> {
      const data = await get(path);
      if (data === null) return { kind: "missing" };
      if (Array.isArray(data) || data.type !== "file" || !("content" in data)) {
        return { kind: "unreadable", reason: "is not a regular file" };
      }
      if (data.size > maxBytes) return { kind: "too_large", size: data.size };
      return { kind: "found", bytes: Buffer.from(data.content, "base64") };
    },
  };
}
