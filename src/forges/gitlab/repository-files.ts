// Files of the project's default branch, through the repository files and tree APIs: the
// repository's configuration and the guidance files, never the merge request's head, so a merge
// request (a fork's included) cannot change how it is reviewed. The configuration is
// `.gitlab/loupe.yml`, or `.github/loupe.yml` when only that exists (a repository mirrored from
// GitHub, or moving from it). A guidance file's size is read from the HEAD request's
// X-Gitlab-Size before any byte of it is downloaded.

import type { GuidanceDirEntry, GuidanceRead, GuidanceSource } from "../../guidance/types.ts";
import type { HostConfigFile } from "../../host/pull-request-host.ts";
import { type GitLabApi, gitLabStatus } from "./gitlab-api.ts";

export const GITLAB_CONFIG_PATHS = [".gitlab/loupe.yml", ".github/loupe.yml"] as const;

/** The project's path in the API and its default branch, read once. */
export interface ProjectRef {
  readonly id: string;
  readonly defaultBranch: () => Promise<string>;
}

const file = (project: ProjectRef, path: string) =>
  `/projects/${project.id}/repository/files/${encodeURIComponent(path)}`;

export async function readConfigFile(api: GitLabApi, project: ProjectRef): Promise<HostConfigFile> {
  const ref = await project.defaultBranch();
  for (const path of GITLAB_CONFIG_PATHS) {
    try {
      const text = await api.text(`${file(project, path)}/raw`, { ref });
      if (text !== null) return { file: { kind: "found", text }, source: `${path} on the default branch` };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { file: { kind: "unreadable", message }, source: `${path} on the default branch` };
    }
  }
  return { file: { kind: "missing" }, source: `${GITLAB_CONFIG_PATHS.join(" or ")} on the default branch` };
}

interface TreeEntry {
  readonly name: string;
  readonly type: string;
}

export function gitLabGuidanceSource(api: GitLabApi, project: ProjectRef): GuidanceSource {
  return {
    async list(dir): Promise<GuidanceDirEntry[]> {
      const ref = await project.defaultBranch();
      try {
        const { items } = await api.pages<TreeEntry>(`/projects/${project.id}/repository/tree`, {
          ref,
          ...(dir === "" ? {} : { path: dir }),
        });
        return items.map((e) => ({
          name: e.name,
          type: e.type === "blob" ? "file" : e.type === "tree" ? "dir" : "other",
        }));
      } catch (error) {
        if (gitLabStatus(error) === 404) return [];
        throw error;
      }
    },
    async read(path, maxBytes): Promise<GuidanceRead> {
      const ref = await project.defaultBranch();
      const headers = await api.head(file(project, path), { ref });
      if (headers === null) return { kind: "missing" };
      const size = Number(headers.get("x-gitlab-size"));
      if (Number.isFinite(size) && size > maxBytes) return { kind: "too_large", size };
      // Guidance and .gitattributes are text: the raw file is read as UTF-8.
      const text = await api.text(`${file(project, path)}/raw`, { ref });
      if (text === null) return { kind: "missing" };
      return { kind: "found", bytes: new TextEncoder().encode(text) };
    },
  };
}
