// The organisation's file on GitLab: the project the operator names in GITLAB_CONFIG_PROJECT
// (e.g. `acme/loupe-settings`), its `.gitlab/loupe.yml` or `.github/loupe.yml` read from that
// project's default branch, never from a merge request or a fork. GitLab answers 404 for a project
// the token may not read as for one that does not exist: either way, no organisation layer.

import type { ConfigFile } from "../../config/config-file-read.ts";
import { type GitLabApi, gitLabStatus, projectId } from "./gitlab-api.ts";
import { readConfigFile } from "./repository-files.ts";

export async function readOrganisationConfig(api: GitLabApi, project: string): Promise<ConfigFile | null> {
  const id = projectId(project);
  let defaultBranch: string | null;
  try {
    defaultBranch = (await api.get<{ default_branch: string | null }>(`/projects/${id}`)).default_branch;
  } catch (error) {
    const status = gitLabStatus(error);
    if (status === 404 || status === 403) return null;
    throw error;
  }
  if (defaultBranch === null) return null; // an empty project has no files
  const read = await readConfigFile(api, { id, defaultBranch: async () => defaultBranch });
  if (read.file.kind === "missing") return null;
  return {
    file: read.file,
    source: `${project}: ${read.source.replace(/ the default branch$/, " its default branch")}`,
  };
}
